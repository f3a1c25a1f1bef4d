package com.github.tracebeat.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The settings the recorder reads, once, when it starts: each a system
 * property, else the value the jar carries ({@code tracebeat runtime --set
 * KEY=VALUE} writes them into {@link #CARRIED}: how an Android app, which
 * has no command line, is told). A value it cannot read costs one line on
 * stderr and falls back to the default: the program's own behaviour never
 * changes.
 *
 * <pre>
 * tracebeat.trace=FILE       the recording (at exit in ring mode, all along in stream mode)
 * tracebeat.mode=ring|stream ring (default): the newest records of each thread, written at exit;
 *                            stream: the whole run, written while the program runs
 * tracebeat.budget=16m       the rings' memory
 * tracebeat.maxsize=1g       stream: the file's bound (0: none); the oldest chunks go first
 * tracebeat.maxage=DURATION  stream: chunks older than this go (default: none)
 * tracebeat.flush=1s         stream: how often records reach the file
 * tracebeat.compress=lz|deflate|none  the stream's tokens (the files written from the rings are not compressed)
 * tracebeat.slow=DURATION    a call that ran longer writes a report when it returns (Android: 700ms)
 * tracebeat.stall=DURATION   a thread that made no record for longer, inside a call, writes one while stuck
 * tracebeat.anr=DURATION     Android: a main-looper message still running after this writes one (default 5s)
 * tracebeat.looper=false     Android: leave the main looper's messages alone (no sections, no ANR reports)
 * tracebeat.slow.threads / tracebeat.stall.threads=REGEX   only threads whose name matches
 *                            (Android: slow calls of the main looper's thread only, as Matrix reports them)
 * tracebeat.slow.methods / tracebeat.stall.methods=REGEX   only methods whose name matches (needs tracebeat.map)
 * tracebeat.map=FILE         the methodMapping.txt, for method patterns and names in log lines
 * tracebeat.reports=20       at most this many reports a run
 * tracebeat.reports.size=64m at most this many bytes of reports a run
 * tracebeat.dump.dir=DIR     where dump requests are looked for (default java.io.tmpdir)
 * </pre>
 */
final class Settings {
    static final int MODE_RING = 0;
    static final int MODE_STREAM = 1;

    static final long DEFAULT_BUDGET = 16L << 20;

    /** The jar's own settings, a properties file (keys with their tracebeat. prefix). */
    static final String CARRIED = "/com/github/tracebeat/runtime/settings.properties";
    /** Declared before every setting: they read it. */
    private static final Properties CARRIED_SETTINGS = carried();

    static final String TRACE = text("tracebeat.trace");
    /** Android without tracebeat.trace: the path in the app's files folder, once found (see {@link AndroidApp}). */
    private static volatile String foundTrace;
    static final int MODE = mode(get("tracebeat.mode"), TRACE);
    static final long BUDGET = size("tracebeat.budget", DEFAULT_BUDGET);
    static final long MAX_SIZE = size("tracebeat.maxsize", 1L << 30);
    static final long MAX_AGE_NANOS = duration("tracebeat.maxage", 0);
    static final long FLUSH_NANOS = Math.max(10000000L, duration("tracebeat.flush", 1000000000L));
    static final int COMPRESS = compress(get("tracebeat.compress"));
    static final long SLOW_NANOS = duration("tracebeat.slow", Platform.ANDROID ? 700000000L : 0);
    /** Android: whether the main looper's messages are sections (see {@link MainLooper}). */
    static final boolean LOOPER = Platform.ANDROID && !"false".equals(get("tracebeat.looper"));
    static final long ANR_NANOS = LOOPER ? duration("tracebeat.anr", 5000000000L) : 0;
    static final long STALL_NANOS = duration("tracebeat.stall", 0);
    static final Pattern SLOW_THREADS = pattern("tracebeat.slow.threads");
    /** Android without tracebeat.slow.threads: slow calls of the main looper's thread only. */
    static final boolean SLOW_MAIN_ONLY = LOOPER && SLOW_THREADS == null;
    static final Pattern STALL_THREADS = pattern("tracebeat.stall.threads");
    static final Pattern SLOW_METHODS = pattern("tracebeat.slow.methods");
    static final Pattern STALL_METHODS = pattern("tracebeat.stall.methods");
    static final String MAP = text("tracebeat.map");
    static final int REPORTS = (int) Math.min(Integer.MAX_VALUE, count("tracebeat.reports", 20));
    static final long REPORTS_SIZE = size("tracebeat.reports.size", 64L << 20);
    static final String DUMP_DIR = dumpDir();

    private Settings() {
    }

    /** Where the recording goes: tracebeat.trace, or on Android the path found in the app's files folder; null: nowhere yet. */
    static String trace() {
        return TRACE != null ? TRACE : foundTrace;
    }

    /** The recording's path, found once the app is there (Android). */
    static void traceFound(String path) {
        foundTrace = path;
    }

    static boolean stream() {
        return MODE == MODE_STREAM;
    }

    /** Whether slow calls or stalls are watched. */
    static boolean watching() {
        return SLOW_NANOS > 0 || STALL_NANOS > 0 || ANR_NANOS > 0;
    }

    /**
     * Ring mode's watch: each thread keeps the depth of its calls and when
     * each began as it records (see {@link ThreadLog#record}); in stream
     * mode the monitor follows every record anyway, and watches there.
     */
    static final boolean OWNER_WATCH = (SLOW_NANOS > 0 || STALL_NANOS > 0) && MODE == MODE_RING;

    /** A setting's value: the system property, else the jar's; null when neither says. */
    static String get(String key) {
        String v = System.getProperty(key);
        return v != null ? v : CARRIED_SETTINGS.getProperty(key);
    }

    private static Properties carried() {
        Properties p = new Properties();
        try (InputStream in = Settings.class.getResourceAsStream(CARRIED)) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException | RuntimeException e) {
            warn("cannot read the jar's settings (" + e + "); using the defaults");
        }
        return p;
    }

    private static String text(String key) {
        String v = get(key);
        return v == null || v.trim().isEmpty() ? null : v.trim();
    }

    private static String lower(String v) {
        return v == null ? "" : v.trim().toLowerCase(Locale.ROOT);
    }

    private static int mode(String v, String trace) {
        String m = lower(v);
        if (m.isEmpty() || m.equals("ring")) {
            return MODE_RING;
        }
        if (m.equals("stream")) {
            if (trace == null && !Platform.ANDROID) { // Android: the app's files folder, once found
                warn("tracebeat.mode=stream needs -Dtracebeat.trace=FILE to write to; recording in ring mode");
                return MODE_RING;
            }
            return MODE_STREAM;
        }
        warn("tracebeat.mode=" + v + " is not ring or stream; using ring");
        return MODE_RING;
    }

    private static int compress(String v) {
        String c = lower(v);
        if (c.isEmpty() || c.equals("lz")) {
            return Packer.LZ;
        }
        if (c.equals("deflate")) {
            return Packer.DEFLATE;
        }
        if (c.equals("none")) {
            return Packer.RAW;
        }
        warn("tracebeat.compress=" + v + " is not lz, deflate or none; using lz");
        return Packer.LZ;
    }

    private static String dumpDir() {
        String d = text("tracebeat.dump.dir");
        return d != null ? d : System.getProperty("java.io.tmpdir", ".");
    }

    /** A size: bytes, or a number with k, m or g; -1 when s is not one. */
    static long parseSize(String s) {
        String v = lower(s);
        if (v.isEmpty()) {
            return -1;
        }
        long unit = 1;
        char last = v.charAt(v.length() - 1);
        if (last == 'k' || last == 'm' || last == 'g') {
            unit = last == 'k' ? 1L << 10 : last == 'm' ? 1L << 20 : 1L << 30;
            v = v.substring(0, v.length() - 1);
        }
        try {
            long n = Long.parseLong(v);
            if (n >= 0 && n <= Long.MAX_VALUE / unit) {
                return n * unit;
            }
        } catch (NumberFormatException e) {
            // not a size
        }
        return -1;
    }

    /**
     * A duration in nanoseconds: a number with ns, us, ms, s, m or h (a bare
     * number is milliseconds); -1 when s is not one.
     */
    static long parseDuration(String s) {
        String v = lower(s);
        int i = 0;
        while (i < v.length() && (Character.isDigit(v.charAt(i)) || v.charAt(i) == '.')) {
            i++;
        }
        if (i == 0) {
            return -1;
        }
        double n;
        try {
            n = Double.parseDouble(v.substring(0, i));
        } catch (NumberFormatException e) {
            return -1;
        }
        String unit = v.substring(i).trim();
        double scale;
        switch (unit) {
            case "ns":
                scale = 1;
                break;
            case "us":
            case "µs":
                scale = 1e3;
                break;
            case "":
            case "ms":
                scale = 1e6;
                break;
            case "s":
                scale = 1e9;
                break;
            case "m":
            case "min":
                scale = 60e9;
                break;
            case "h":
                scale = 3600e9;
                break;
            default:
                return -1;
        }
        double ns = n * scale;
        return ns >= Long.MAX_VALUE ? -1 : (long) ns;
    }

    private static long size(String key, long fallback) {
        String v = get(key);
        if (v == null || v.trim().isEmpty()) {
            return fallback;
        }
        long n = parseSize(v);
        if (n < 0) {
            warn(key + "=" + v + " is not a size (like 64m); using " + fallback);
            return fallback;
        }
        return n;
    }

    private static long duration(String key, long fallback) {
        String v = get(key);
        if (v == null || v.trim().isEmpty()) {
            return fallback;
        }
        long n = parseDuration(v);
        if (n < 0) {
            warn(key + "=" + v + " is not a duration (like 700ms or 5s); ignored");
            return fallback;
        }
        return n;
    }

    private static long count(String key, long fallback) {
        String v = get(key);
        if (v == null || v.trim().isEmpty()) {
            return fallback;
        }
        try {
            long n = Long.parseLong(v.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        warn(key + "=" + v + " is not a count; using " + fallback);
        return fallback;
    }

    private static Pattern pattern(String key) {
        String v = text(key);
        if (v == null) {
            return null;
        }
        try {
            return Pattern.compile(v);
        } catch (PatternSyntaxException e) {
            warn(key + "=" + v + " is not a regular expression (" + e.getDescription() + "); ignored");
            return null;
        }
    }

    static void warn(String what) {
        System.err.println("tracebeat: " + what);
    }
}
