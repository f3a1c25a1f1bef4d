package com.github.tracebeat.runtime;

import java.io.File;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * What the runtime does to files with java.nio.file: loaded only where the
 * platform has it ({@link Platform#NIO_FILES}: every JVM, Android from 8.0);
 * elsewhere the callers do with java.io.
 */
final class NioFiles {
    private NioFiles() {
    }

    /** Renames from over to, atomically where the file system can. */
    static void move(File from, File to) throws IOException {
        Path src = from.toPath();
        Path dst = to.toPath();
        try {
            Files.move(src, dst, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(src, dst, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** The file's owner (not following a link). */
    static String owner(File f) throws IOException {
        return Files.getOwner(f.toPath(), LinkOption.NOFOLLOW_LINKS).getName();
    }

    /** Makes the folder, private to the user where the file system says who may read it. */
    static void makePrivateDir(File dir) throws IOException {
        Path d = dir.toPath();
        if (Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.createDirectories(d);
        try {
            Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwx------"));
        } catch (UnsupportedOperationException e) {
            // Windows: the temporary folder is the user's own already
        }
    }
}
