package com.github.tracebeat.runtime;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.TreeSet;

/**
 * The builds whose code the program runs: {@code tracebeat instrument}
 * writes the identity of the method map it made (a hash of its lines) into
 * its output as the resource {@link #RESOURCE}, and the recording carries
 * every one it finds, so that decode can refuse the map of another build.
 * It looks where the program's classes usually come from: the system
 * class loader, the runtime's own, and the context loader of the thread
 * that writes; classes that only a loader of the program's own finds (a
 * fat jar's nested jars) need {@code -Dtracebeat.build=ID}.
 */
final class BuildIds {
    static final String RESOURCE = "META-INF/tracebeat/build-id";
    /** An identity is short hexadecimal text; anything longer is not one of ours. */
    private static final int MAX_LENGTH = 64;

    private BuildIds() {
    }

    /** The identities found, sorted, each once; empty when none is found. */
    static List<String> find() {
        TreeSet<String> ids = new TreeSet<String>();
        String given = Settings.get("tracebeat.build");
        if (given != null && !given.trim().isEmpty()) {
            ids.add(given.trim());
        }
        ClassLoader[] loaders = {ClassLoader.getSystemClassLoader(), BuildIds.class.getClassLoader(),
            Thread.currentThread().getContextClassLoader()};
        for (ClassLoader loader : loaders) {
            if (loader == null) {
                continue;
            }
            try {
                for (Enumeration<URL> e = loader.getResources(RESOURCE); e.hasMoreElements();) {
                    String id = read(e.nextElement());
                    if (id != null) {
                        ids.add(id);
                    }
                }
            } catch (IOException | RuntimeException e) {
                // A loader that cannot list resources names no build.
            }
        }
        return new ArrayList<String>(ids);
    }

    private static String read(URL url) {
        try (InputStream in = url.openStream()) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            byte[] buf = new byte[MAX_LENGTH + 1];
            int n;
            while ((n = in.read(buf)) > 0 && b.size() <= MAX_LENGTH) {
                b.write(buf, 0, n);
            }
            String id = new String(b.toByteArray(), StandardCharsets.UTF_8).trim();
            return id.isEmpty() || id.length() > MAX_LENGTH ? null : id;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
