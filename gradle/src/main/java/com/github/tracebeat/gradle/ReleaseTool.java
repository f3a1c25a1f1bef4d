package com.github.tracebeat.gradle;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

import org.gradle.api.GradleException;
import org.gradle.api.Project;
import org.gradle.api.artifacts.Configuration;
import org.gradle.api.artifacts.Dependency;

/**
 * The tracebeat binary of the plugin's own release, as protobuf-gradle-plugin
 * resolves protoc: a Maven artifact per OS and architecture
 * ({@code com.github.tracebeat:tracebeat:V:<classifier>@exe}) from the
 * project's repositories, checked against the SHA-256 that the release wrote
 * into the plugin jar, and unpacked once per version under Gradle's user home
 * ({@code caches/tracebeat/V/<classifier>/}), never into the project.
 *
 * <p>Two builds may unpack at the same time: each writes a temporary file of
 * its own next to the target and renames it over; the binary is complete
 * whenever it is there, and it is checked before every use.
 */
final class ReleaseTool {
    /** Written by scripts/release.sh into the plugin jar. */
    static final String PROPERTIES = "com/github/tracebeat/gradle/tracebeat-tool.properties";

    final String version;
    final String group;
    final String artifact;
    final String extension;
    /** Classifier of this machine, or null when no release binary fits it. */
    final String classifier;
    /** SHA-256 of this machine's binary, or null. */
    final String sha256;
    /** The classifiers the release has, for messages. */
    final List<String> supported;
    private final String platform;

    private ReleaseTool(Properties p, String platform, String classifier) {
        version = p.getProperty("version");
        group = p.getProperty("group");
        artifact = p.getProperty("artifact");
        extension = p.getProperty("extension");
        List<String> have = new ArrayList<String>();
        for (String key : p.stringPropertyNames()) {
            if (key.startsWith("sha256.")) {
                have.add(key.substring("sha256.".length()));
            }
        }
        Collections.sort(have);
        supported = have;
        this.platform = platform;
        this.classifier = classifier != null && have.contains(classifier) ? classifier : null;
        sha256 = this.classifier == null ? null : p.getProperty("sha256." + this.classifier);
    }

    /** The release the plugin jar names, or null for a plugin built by hand (no properties). */
    static ReleaseTool load() {
        InputStream in = ReleaseTool.class.getClassLoader().getResourceAsStream(PROPERTIES);
        if (in == null) {
            return null;
        }
        Properties p = new Properties();
        try {
            try {
                p.load(in);
            } finally {
                in.close();
            }
        } catch (IOException e) {
            throw new GradleException("tracebeat: cannot read " + PROPERTIES + " from the plugin jar", e);
        }
        String os = System.getProperty("os.name", "");
        String arch = System.getProperty("os.arch", "");
        return new ReleaseTool(p, os + "/" + arch, classifier(os, arch));
    }

    /** protoc's classifier for an os.name and os.arch, or null. */
    static String classifier(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String arch = osArch.toLowerCase(Locale.ROOT);
        String o = os.startsWith("linux") ? "linux"
                : os.startsWith("mac") || os.startsWith("darwin") ? "osx"
                : os.startsWith("windows") ? "windows" : null;
        String a = arch.equals("amd64") || arch.equals("x86_64") || arch.equals("x64") ? "x86_64"
                : arch.equals("aarch64") || arch.equals("arm64") ? "aarch_64" : null;
        return o == null || a == null ? null : o + "-" + a;
    }

    /** What the build cache keys the tool by: version and checksum, not where it lies. */
    String identity() {
        return "tracebeat " + version + " " + (classifier == null ? "unsupported " + platform : classifier + " sha256:" + sha256);
    }

    /** The binary, resolved and unpacked when needed; fails the build when it cannot be had. */
    File resolve(Project project) {
        if (classifier == null) {
            throw new GradleException("tracebeat: release " + version + " has no binary for " + platform
                    + " (it has " + String.join(", ", supported) + "). Build tracebeat for this machine"
                    + " (go build ./cmd/tracebeat) and set tracebeat { toolPath = '/path/to/tracebeat' }"
                    + " or the TRACEBEAT_TOOL environment variable.");
        }
        boolean windows = classifier.startsWith("windows");
        File dir = new File(project.getGradle().getGradleUserHomeDir(),
                "caches/tracebeat/" + version + "/" + classifier);
        File exe = new File(dir, windows ? "tracebeat.exe" : "tracebeat");
        if (exe.isFile() && sha256.equals(sha256(exe))) {
            return exe;
        }
        String coordinates = group + ":" + artifact + ":" + version + ":" + classifier + "@" + extension;
        File artifactFile;
        try {
            Dependency dep = project.getDependencies().create(coordinates);
            Configuration conf = project.getConfigurations().detachedConfiguration(dep);
            conf.setTransitive(false);
            artifactFile = conf.getSingleFile();
        } catch (RuntimeException e) {
            // Logged as well: Gradle 4.4 shows a task's cause only with --stacktrace.
            String help = resolutionHelp(project, coordinates);
            project.getLogger().error(help);
            throw new GradleException(help, e);
        }
        String got = sha256(artifactFile);
        if (!sha256.equals(got)) {
            throw new GradleException("tracebeat: " + artifactFile + " (" + coordinates + ") has SHA-256 " + got
                    + ", but release " + version + " says " + sha256 + ": refusing to run it");
        }
        install(artifactFile, dir, exe);
        return exe;
    }

    /**
     * What to do when the binary does not resolve. A project without
     * repositories gets the snippet to add: Gradle itself only says that
     * none are defined. (Repositories declared in settings.gradle under
     * dependencyResolutionManagement are not the project's, and resolve.)
     */
    static String resolutionHelp(Project project, String coordinates) {
        String ways = " Or set tracebeat { toolPath = '/path/to/tracebeat' } or the TRACEBEAT_TOOL environment variable"
                + " to a tracebeat binary.";
        if (project.getRepositories().isEmpty()) {
            return "tracebeat: the plugin runs the tracebeat binary of its release, " + coordinates
                    + ", which it resolves from the repositories of " + project.getDisplayName()
                    + ", and this project has none. Add the Maven repository that holds the tracebeat release"
                    + " (the one pluginManagement names for the plugin) to build.gradle:\n"
                    + "    repositories {\n"
                    + "        maven { url 'https://maven.example.com/tracebeat' }   // where the release is\n"
                    + "    }\n"
                    + "(with dependencyResolutionManagement in settings.gradle, add it there instead.)" + ways;
        }
        return "tracebeat: cannot resolve " + coordinates + " from the repositories of " + project.getDisplayName()
                + ": add the Maven repository that holds the tracebeat release (the one pluginManagement names for"
                + " the plugin) to repositories { }." + ways;
    }

    private void install(File from, File dir, File exe) {
        Path tmp = null;
        try {
            Files.createDirectories(dir.toPath());
            tmp = Files.createTempFile(dir.toPath(), ".tracebeat-", ".tmp");
            Files.copy(from.toPath(), tmp, StandardCopyOption.REPLACE_EXISTING);
            if (!tmp.toFile().setExecutable(true, false)) {
                throw new IOException("cannot make " + tmp + " executable");
            }
            try {
                Files.move(tmp, exe.toPath(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException | FileAlreadyExistsException e) {
                Files.move(tmp, exe.toPath(), StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
        } catch (IOException e) {
            // On Windows a binary that another build runs cannot be replaced;
            // that build put the same bytes there.
            if (!(exe.isFile() && sha256.equals(sha256(exe)))) {
                throw new GradleException("tracebeat: cannot unpack the tracebeat binary to " + exe + ": " + e, e);
            }
        } finally {
            if (tmp != null) {
                tmp.toFile().delete();
            }
        }
        if (!exe.canExecute() && !exe.setExecutable(true, false)) {
            throw new GradleException("tracebeat: " + exe + " is not executable");
        }
    }

    static String sha256(File f) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            InputStream in = Files.newInputStream(f.toPath());
            try {
                byte[] buf = new byte[1 << 16];
                for (int n; (n = in.read(buf)) > 0;) {
                    md.update(buf, 0, n);
                }
            } finally {
                in.close();
            }
            StringBuilder sb = new StringBuilder();
            for (byte b : md.digest()) {
                sb.append(String.format("%02x", b));
            }
            return sb.toString();
        } catch (IOException | NoSuchAlgorithmException e) {
            throw new GradleException("tracebeat: cannot read " + f + ": " + e, e);
        }
    }
}
