import java.io.InputStream;
import java.security.MessageDigest;
import java.util.Enumeration;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Reads each jar named on the command line the way the JVM's class path
 * does (java.util.zip.ZipFile, UTF-8 names) and prints what Java sees, one
 * line per entry in central-directory order:
 *
 *   JAR  path
 *   E    name-hex  dir  size  crc-hex  sha256-hex
 *   END  entries
 * or, when Java refuses the jar or one of its entries:
 *   REFUSED  message
 *
 * Names are printed as the hex of their UTF-8 bytes so any character
 * survives; "dir" is 1 for ZipEntry.isDirectory().
 */
public final class ZipProbe {
    public static void main(String[] args) throws Exception {
        byte[] buf = new byte[1 << 16];
        for (String path : args) {
            System.out.println("JAR\t" + path);
            int n = 0;
            try (ZipFile zf = new ZipFile(path)) {
                Enumeration<? extends ZipEntry> en = zf.entries();
                StringBuilder out = new StringBuilder();
                while (en.hasMoreElements()) {
                    ZipEntry e = en.nextElement();
                    MessageDigest sha = MessageDigest.getInstance("SHA-256");
                    CRC32 crc = new CRC32();
                    long size = 0;
                    try (InputStream in = zf.getInputStream(e)) {
                        for (int r; (r = in.read(buf)) > 0; ) {
                            sha.update(buf, 0, r);
                            crc.update(buf, 0, r);
                            size += r;
                        }
                    }
                    out.append("E\t").append(hex(e.getName().getBytes("UTF-8")))
                        .append('\t').append(e.isDirectory() ? 1 : 0)
                        .append('\t').append(size)
                        .append('\t').append(Long.toHexString(crc.getValue()))
                        .append('\t').append(hex(sha.digest())).append('\n');
                    n++;
                }
                System.out.print(out);
                System.out.println("END\t" + n);
            } catch (Exception e) {
                System.out.println("REFUSED\t" + String.valueOf(e).replace('\n', ' ').replace('\t', ' '));
            }
        }
    }

    private static String hex(byte[] b) {
        StringBuilder s = new StringBuilder(b.length * 2);
        for (byte x : b) {
            s.append(Character.forDigit((x >> 4) & 15, 16)).append(Character.forDigit(x & 15, 16));
        }
        return s.toString();
    }
}
