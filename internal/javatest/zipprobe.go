package javatest

import (
	"bufio"
	_ "embed"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

//go:embed java/ZipProbe.java
var zipProbeSource []byte

// JarListing is what java.util.zip.ZipFile, the reader behind the JVM's
// class path, sees in one jar.
type JarListing struct {
	// Refused is Java's exception when it cannot open the jar or read
	// one of its entries; the other fields are then empty.
	Refused string
	Entries []JarEntry
}

// JarEntry is one entry as Java reads it, in central-directory order.
type JarEntry struct {
	Name   string
	Dir    bool // ZipEntry.isDirectory: the name ends in '/'
	Size   int64
	CRC    uint32
	SHA256 string // of the content Java inflated
}

// JavaReadJars has Java read every entry of each jar, in one JVM, and
// returns the listings by path.
func JavaReadJars(tb testing.TB, jars ...string) map[string]JarListing {
	tb.Helper()
	classes := embeddedClasses(tb, "ZipProbe.java", zipProbeSource)
	stdout, stderr, err := Run(tb, []string{classes}, "ZipProbe", jars...)
	if err != nil {
		tb.Fatalf("javatest: ZipProbe: %v\n%s", err, stderr)
	}
	out, err := parseZipProbe(stdout)
	if err != nil {
		tb.Fatalf("javatest: ZipProbe: %v", err)
	}
	for _, j := range jars {
		if _, ok := out[j]; !ok {
			tb.Fatalf("javatest: ZipProbe printed nothing for %s", j)
		}
	}
	return out
}

func parseZipProbe(stdout string) (map[string]JarListing, error) {
	out := map[string]JarListing{}
	var jar string
	var cur JarListing
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		switch {
		case f[0] == "JAR" && len(f) == 2:
			jar, cur = f[1], JarListing{}
		case f[0] == "REFUSED" && len(f) == 2:
			out[jar] = JarListing{Refused: f[1]}
		case f[0] == "END" && len(f) == 2:
			if n, err := strconv.Atoi(f[1]); err != nil || n != len(cur.Entries) {
				return nil, fmt.Errorf("%s: END %s after %d entries", jar, f[1], len(cur.Entries))
			}
			out[jar] = cur
		case f[0] == "E" && len(f) == 6:
			name, err := hex.DecodeString(f[1])
			if err != nil {
				return nil, fmt.Errorf("%s: line %q: %w", jar, sc.Text(), err)
			}
			size, err1 := strconv.ParseInt(f[3], 10, 64)
			crc, err2 := strconv.ParseUint(f[4], 16, 32)
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("%s: line %q", jar, sc.Text())
			}
			cur.Entries = append(cur.Entries, JarEntry{Name: string(name), Dir: f[2] == "1", Size: size, CRC: uint32(crc), SHA256: f[5]})
		default:
			return nil, fmt.Errorf("unexpected line %q", sc.Text())
		}
	}
	return out, sc.Err()
}
