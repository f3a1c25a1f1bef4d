package com.github.tracebeat.runtime;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;

/**
 * How a dump is asked for without the program's help:
 * <ul>
 * <li>{@code tracebeat dump PID [-o FILE]} writes the request file
 * {@code PID.dump} (its first line: where to write, or nothing) into the
 * folder {@code tracebeat-USER} of the temporary folder (the
 * {@code tracebeat.dump.dir} property names another), and waits for
 * {@code PID.done}: "ok PATH" or "error WHY". The folder is the user's
 * alone where the system allows, and a request another user wrote is
 * refused: a dump replaces the file it names.</li>
 * <li>a file named like the recording plus ".dump" ({@code touch app.trace.dump});</li>
 * <li>SIGUSR2, where the JVM lets a program handle it (not on Windows);</li>
 * <li>on Android, the broadcast {@code com.github.tracebeat.DUMP} (DumpReceiver).</li>
 * </ul>
 */
final class Triggers {
    final File dir;
    private final File request;
    private final File reply;
    private volatile boolean signalled;
    /** A dump asked for by the program's platform (Android: DumpReceiver's broadcast). */
    private static volatile boolean requested;
    /** Whether the last request came from the request file: its answer goes to the reply file. */
    private boolean fromFile;

    Triggers() {
        long pid = TraceFile.pid();
        dir = new File(Settings.DUMP_DIR, "tracebeat-" + user());
        request = new File(dir, pid + ".dump");
        reply = new File(dir, pid + ".done");
        makeDir();
        announce(new File(dir, pid + ".alive"));
        listen();
    }

    /**
     * Says that this process records, and how (tracebeat dump --list reads
     * it, and dump looks for it): removed at exit (a killed program leaves
     * it, and dump checks that the process lives).
     */
    private static void announce(File alive) {
        try {
            String trace = Settings.TRACE == null ? "" : new File(Settings.TRACE).getAbsolutePath();
            final byte[] b = ("trace=" + trace + "\nmode=" + (Settings.stream() ? "stream" : "ring") + "\n").getBytes(StandardCharsets.UTF_8);
            TraceFile.replace(alive.getPath(), new TraceFile.Body() {
                @Override
                public void writeTo(OutputStream out) throws IOException {
                    out.write(b);
                }
            });
            alive.deleteOnExit();
        } catch (IOException | RuntimeException e) {
            // dump cannot find this program; the other ways still work
        }
    }

    static String user() {
        String u = System.getProperty("user.name", "user");
        StringBuilder b = new StringBuilder();
        for (char c : u.toCharArray()) {
            b.append(Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.' ? c : '_');
        }
        return b.toString();
    }

    private void makeDir() {
        try {
            if (Platform.NIO_FILES) {
                NioFiles.makePrivateDir(dir);
            } else {
                dir.mkdirs(); // Android before 8.0: the app's own files folder, private already
            }
        } catch (IOException | RuntimeException e) {
            // no dumps by request file; the other ways still work
        }
    }

    /** SIGUSR2 asks for a dump, where sun.misc.Signal exists and the JVM lets it go (reflection: no compile-time tie to it). */
    private void listen() {
        if (File.separatorChar == '\\') {
            return;
        }
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handler = Class.forName("sun.misc.SignalHandler");
            Object usr2 = signal.getConstructor(String.class).newInstance("USR2");
            Object h = Proxy.newProxyInstance(handler.getClassLoader(), new Class<?>[] {handler}, new InvocationHandler() {
                @Override
                public Object invoke(Object proxy, Method m, Object[] args) {
                    if (m.getName().equals("handle")) {
                        signalled = true;
                        Monitor.hurry();
                    }
                    return null;
                }
            });
            signal.getMethod("handle", signal, handler).invoke(null, usr2, h);
        } catch (Throwable e) {
            // the JVM uses SIGUSR2 itself, or has no sun.misc: the files still work
        }
    }

    /** Asks for a dump at the default place, from any thread. */
    static void request() {
        requested = true;
        Monitor.hurry();
    }

    /** The dump asked for since the last call: where to write it ("" for the default), or null. */
    String poll() {
        if (signalled || requested) {
            signalled = false;
            requested = false;
            fromFile = false;
            return "";
        }
        if (request.isFile()) {
            String where = read(request);
            request.delete();
            if (where != null) {
                fromFile = true;
                return where;
            }
        }
        String trace = Settings.trace(); // on Android found later than this
        File beside = trace != null ? new File(trace + ".dump").getAbsoluteFile() : null;
        if (beside != null && beside.exists()) {
            beside.delete();
            fromFile = false;
            return "";
        }
        return null;
    }

    /** The request's first line, or null when another user wrote it (refused, with a reply that says so). */
    private String read(File f) {
        try {
            if (!Platform.NIO_FILES) {
                throw new IOException("no owners before Android 8.0; the app's own folder"); // take it
            }
            String owner = NioFiles.owner(f);
            String me = System.getProperty("user.name", "");
            if (!owner.equals(me) && !owner.endsWith("\\" + me) && !owner.equals("root")) {
                fromFile = true;
                answer(null, "refused: the request belongs to " + owner + ", the program runs as " + me);
                return null;
            }
        } catch (IOException | RuntimeException e) {
            // no owners here: take it
        }
        try (BufferedReader r = new BufferedReader(new InputStreamReader(new FileInputStream(f), StandardCharsets.UTF_8))) {
            String line = r.readLine();
            return line == null ? "" : line.trim();
        } catch (IOException e) {
            return "";
        }
    }

    /** Says how a dump went: to the requester's reply file, or on stderr. */
    void answer(String path, String error) {
        String text = error == null ? "ok " + path : "error " + error;
        if (!fromFile) {
            Settings.warn(error == null ? "dump written to " + path : "dump failed: " + error);
            return;
        }
        try {
            final byte[] b = (text + "\n").getBytes(StandardCharsets.UTF_8);
            TraceFile.replace(reply.getPath(), new TraceFile.Body() {
                @Override
                public void writeTo(OutputStream out) throws IOException {
                    out.write(b);
                }
            });
        } catch (IOException e) {
            Settings.warn("dump: cannot answer in " + reply + ": " + e.getMessage());
        }
    }
}
