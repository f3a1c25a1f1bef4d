package tracebeat.standin.agp;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

import org.gradle.api.DefaultTask;
import org.gradle.api.GradleException;
import org.gradle.api.file.FileCollection;
import org.gradle.api.tasks.InputFiles;
import org.gradle.api.tasks.OutputFile;
import org.gradle.api.tasks.TaskAction;

/** Merges class directories and jars into one jar (first entry wins), as the stand-in's packager. */
public class ZipClasses extends DefaultTask {
    private FileCollection from = getProject().files();
    private File into;

    @InputFiles
    public FileCollection getFrom() {
        return from;
    }

    public void setFrom(FileCollection from) {
        this.from = from;
    }

    @OutputFile
    public File getInto() {
        return into;
    }

    public void setInto(File into) {
        this.into = into;
    }

    @TaskAction
    public void zip() throws IOException {
        Set<String> seen = new HashSet<String>();
        into.getParentFile().mkdirs();
        try (ZipOutputStream out = new ZipOutputStream(new FileOutputStream(into))) {
            for (File f : from.getFiles()) {
                if (f.isDirectory()) {
                    TreeMap<String, File> files = new TreeMap<String, File>();
                    collect(f, "", files);
                    for (java.util.Map.Entry<String, File> e : files.entrySet()) {
                        if (seen.add(e.getKey())) {
                            out.putNextEntry(new ZipEntry(e.getKey()));
                            Files.copy(e.getValue().toPath(), out);
                            out.closeEntry();
                        }
                    }
                } else if (f.isFile()) {
                    try (ZipFile zip = new ZipFile(f)) {
                        Enumeration<? extends ZipEntry> entries = zip.entries();
                        while (entries.hasMoreElements()) {
                            ZipEntry e = entries.nextElement();
                            if (!e.isDirectory() && seen.add(e.getName())) {
                                out.putNextEntry(new ZipEntry(e.getName()));
                                try (InputStream in = zip.getInputStream(e)) {
                                    copy(in, out);
                                }
                                out.closeEntry();
                            }
                        }
                    }
                } else {
                    throw new GradleException("stand-in packager: missing input " + f);
                }
            }
        }
    }

    private static void collect(File dir, String prefix, TreeMap<String, File> into) {
        File[] children = dir.listFiles();
        if (children == null) {
            return;
        }
        for (File c : children) {
            if (c.isDirectory()) {
                collect(c, prefix + c.getName() + "/", into);
            } else {
                into.put(prefix + c.getName(), c);
            }
        }
    }

    private static void copy(InputStream in, OutputStream out) throws IOException {
        byte[] buf = new byte[8192];
        for (int n; (n = in.read(buf)) > 0; ) {
            out.write(buf, 0, n);
        }
    }
}
