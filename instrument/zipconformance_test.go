package instrument_test

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/instrument"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/internal/ci"
	"github.com/tracebeat/tracebeat/internal/javatest"
	"github.com/tracebeat/tracebeat/internal/ziptest"
)

// zipFixture holds the classes the conformance jars carry: z/Traced has
// methods that are traced, z/Plain is an interface without code that must
// come out untouched.
type zipFixture struct {
	dir            string // javac output of testdata/zip/src
	traced, plain  []byte
	v11Dir         string // javac output of testdata/zip/v11 (release 11)
	v11            []byte
	stamp          time.Time
	work           string
	needZipCommand bool
}

func newZipFixture(t *testing.T) *zipFixture {
	javatest.RequireJava(t)
	f := &zipFixture{work: t.TempDir(), stamp: time.Date(2024, 5, 6, 7, 8, 10, 0, time.UTC)}
	f.dir = javatest.Javac(t, javatest.Options{Release: 8}, javatest.Testdata(t, "zip", "src"))
	f.v11Dir = javatest.Javac(t, javatest.Options{Release: 11}, javatest.Testdata(t, "zip", "v11"))
	read := func(dir, name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		return b
	}
	f.traced, f.plain = read(f.dir, "z/Traced.class"), read(f.dir, "z/Plain.class")
	f.v11 = read(f.v11Dir, "z/Traced.class")
	return f
}

func (f *zipFixture) path(name string) string {
	return filepath.Join(f.work, strings.ReplaceAll(name, "/", "_")+".jar")
}

// goZip writes a jar with archive/zip; add adds the entries.
func (f *zipFixture) goZip(t *testing.T, name string, add func(zw *zip.Writer)) string {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	add(zw)
	require.NoError(t, zw.Close())
	p := f.path(name)
	require.NoError(t, os.WriteFile(p, b.Bytes(), 0o644))
	return p
}

func goEntry(t *testing.T, zw *zip.Writer, fh *zip.FileHeader, data []byte) {
	w, err := zw.CreateHeader(fh)
	require.NoError(t, err)
	_, err = w.Write(data)
	require.NoError(t, err)
}

// classes adds both classes, deflated with data descriptors (archive/zip's way).
func (f *zipFixture) classes(t *testing.T, zw *zip.Writer) {
	goEntry(t, zw, &zip.FileHeader{Name: "z/Plain.class", Method: zip.Deflate, Modified: f.stamp}, f.plain)
	goEntry(t, zw, &zip.FileHeader{Name: "z/Traced.class", Method: zip.Deflate, Modified: f.stamp}, f.traced)
}

// handZip writes a jar by hand (ziptest) with the classes first.
func (f *zipFixture) handZip(t *testing.T, name string, opts ziptest.Options, entries ...ziptest.Entry) string {
	all := append([]ziptest.Entry{
		{Name: []byte("z/Plain.class"), Data: f.plain, Deflate: true, Modified: f.stamp},
		{Name: []byte("z/Traced.class"), Data: f.traced, Deflate: true, Modified: f.stamp},
	}, entries...)
	p := f.path(name)
	file, err := os.Create(p)
	require.NoError(t, err)
	require.NoError(t, ziptest.Write(file, all, opts))
	require.NoError(t, file.Close())
	return p
}

// tree writes files under a fresh directory (the classes included) for
// the jar and zip commands.
func (f *zipFixture) tree(t *testing.T, files map[string][]byte) string {
	dir := t.TempDir()
	all := map[string][]byte{"z/Plain.class": f.plain, "z/Traced.class": f.traced}
	for k, v := range files {
		all[k] = v
	}
	for name, data := range all {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, data, 0o644))
		require.NoError(t, os.Chtimes(p, f.stamp, f.stamp))
	}
	return dir
}

func run(t *testing.T, dir string, name string, args ...string) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s %v: %s", name, args, out)
}

func requireCommand(t *testing.T, name string) {
	if _, err := exec.LookPath(name); err != nil {
		if ci.On() {
			t.Fatalf("%s is not installed (scripts/test.sh installs it)", name)
		}
		t.Skipf("%s is not installed (scripts/test.sh installs it)", name)
	}
}

// zipCase is one input shape; build returns the jar's path.
type zipCase struct {
	name  string
	build func(t *testing.T, f *zipFixture) string
	// refused: Java cannot read the input, and instrument must fail with
	// an error naming the jar and the entry (when there is one).
	refused   bool
	errEntry  string
	errReason string
}

func zipCases() []zipCase {
	empty := []byte{}
	hello := []byte("hello, zip\n")
	return []zipCase{
		// Empty entries: stored and deflated, with and without data descriptors.
		{name: "go/empty-stored-descriptor", build: func(t *testing.T, f *zipFixture) string {
			return f.goZip(t, "go/empty-stored", func(zw *zip.Writer) {
				f.classes(t, zw)
				goEntry(t, zw, &zip.FileHeader{Name: "p/empty.properties", Method: zip.Store, Modified: f.stamp}, empty)
			})
		}},
		{name: "go/empty-deflated-descriptor", build: func(t *testing.T, f *zipFixture) string {
			return f.goZip(t, "go/empty-deflated", func(zw *zip.Writer) {
				f.classes(t, zw)
				goEntry(t, zw, &zip.FileHeader{Name: "p/empty.properties", Method: zip.Deflate, Modified: f.stamp}, empty)
			})
		}},
		{name: "hand/empty-stored", build: func(t *testing.T, f *zipFixture) string {
			return f.handZip(t, "hand/empty-stored", ziptest.Options{}, ziptest.Entry{Name: []byte("p/empty.txt"), Data: empty})
		}},
		{name: "hand/empty-deflated", build: func(t *testing.T, f *zipFixture) string {
			return f.handZip(t, "hand/empty-deflated", ziptest.Options{}, ziptest.Entry{Name: []byte("p/empty.txt"), Data: empty, Deflate: true})
		}},
		{name: "hand/empty-deflated-descriptor-nosig", build: func(t *testing.T, f *zipFixture) string {
			return f.handZip(t, "hand/empty-deflated-dd", ziptest.Options{},
				ziptest.Entry{Name: []byte("p/empty.txt"), Data: empty, Deflate: true, Descriptor: true, DescriptorNoSig: true})
		}},
		{name: "zip/empty-stored (zip -0)", build: func(t *testing.T, f *zipFixture) string {
			requireCommand(t, "zip")
			dir := f.tree(t, map[string][]byte{"p/empty.txt": empty})
			p := f.path("zip/empty")
			run(t, dir, "zip", "-q", p, "z/Plain.class", "z/Traced.class")
			run(t, dir, "zip", "-q", "-0", p, "p/empty.txt")
			return p
		}},
		// Stored entries with a data descriptor.
		{name: "go/stored-descriptor", build: func(t *testing.T, f *zipFixture) string {
			return f.goZip(t, "go/stored-dd", func(zw *zip.Writer) {
				goEntry(t, zw, &zip.FileHeader{Name: "z/Plain.class", Method: zip.Store, Modified: f.stamp}, f.plain)
				goEntry(t, zw, &zip.FileHeader{Name: "z/Traced.class", Method: zip.Store, Modified: f.stamp}, f.traced)
				goEntry(t, zw, &zip.FileHeader{Name: "p/hello.txt", Method: zip.Store, Modified: f.stamp}, hello)
			})
		}},
		{name: "hand/stored-descriptor-nosig", build: func(t *testing.T, f *zipFixture) string {
			return f.handZip(t, "hand/stored-dd", ziptest.Options{},
				ziptest.Entry{Name: []byte("p/hello.txt"), Data: hello, Descriptor: true, DescriptorNoSig: true},
				ziptest.Entry{Name: []byte("z/Other.class"), Data: f.traced, Descriptor: true})
		}},
		// Directory entries, with and without a trailing slash.
		{name: "hand/directories", build: func(t *testing.T, f *zipFixture) string {
			return f.handZip(t, "hand/dirs", ziptest.Options{},
				ziptest.Entry{Name: []byte("p/"), Dir: true},
				ziptest.Entry{Name: []byte("q"), Dir: true, ExternalAttrs: 0o40755 << 16, CreatorVersion: 3 << 8},
				ziptest.Entry{Name: []byte("r/"), Dir: true, Deflate: true},
				ziptest.Entry{Name: []byte("p/hello.txt"), Data: hello})
		}},
		{name: "go/directories", build: func(t *testing.T, f *zipFixture) string {
			return f.goZip(t, "go/dirs", func(zw *zip.Writer) {
				goEntry(t, zw, &zip.FileHeader{Name: "z/", Modified: f.stamp}, nil)
				f.classes(t, zw)
			})
		}},
		// zip64: more than 65,535 entries; entries past 4 GiB.
		{name: "go/zip64-70000-entries", build: func(t *testing.T, f *zipFixture) string {
			return f.goZip(t, "go/zip64-many", func(zw *zip.Writer) {
				f.classes(t, zw)
				for i := 0; i < 70000; i++ {
					goEntry(t, zw, &zip.FileHeader{Name: fmt.Sprintf("r/%05d", i), Method: zip.Store, Modified: f.stamp}, []byte{byte(i)})
				}
			})
		}},
		{name: "hand/zip64-records-small", build: func(t *testing.T, f *zipFixture) string {
			return f.handZip(t, "hand/zip64", ziptest.Options{Zip64: true}, ziptest.Entry{Name: []byte("p/hello.txt"), Data: hello})
		}},
		{name: "hand/zip64-past-4GiB", build: func(t *testing.T, f *zipFixture) string {
			if runtime.GOOS == "windows" {
				t.Skip("NTFS writes a hole unless the file is marked sparse")
			}
			return f.handZip(t, "hand/zip64-4g", ziptest.Options{Hole: 4<<30 + 12345}, ziptest.Entry{Name: []byte("p/hello.txt"), Data: hello})
		}},
		// Comments and extra fields.
		{name: "go/comments", build: func(t *testing.T, f *zipFixture) string {
			return f.goZip(t, "go/comments", func(zw *zip.Writer) {
				require.NoError(t, zw.SetComment("archive comment"))
				goEntry(t, zw, &zip.FileHeader{Name: "z/Plain.class", Method: zip.Deflate, Comment: "an interface"}, f.plain)
				goEntry(t, zw, &zip.FileHeader{Name: "z/Traced.class", Method: zip.Deflate, Comment: "a traced class"}, f.traced)
				goEntry(t, zw, &zip.FileHeader{Name: "p/hello.txt", Method: zip.Deflate, Comment: "ü"}, hello)
			})
		}},
		{name: "hand/extra-fields", build: func(t *testing.T, f *zipFixture) string {
			cen := append(ziptest.ExtTime(f.stamp), ziptest.UnixIDs(1000, 1000)...)
			loc := append(ziptest.ExtTimeLocal(f.stamp), ziptest.UnixIDs(1000, 1000)...)
			return f.handZip(t, "hand/extras", ziptest.Options{Comment: []byte("made by hand")},
				ziptest.Entry{Name: []byte("p/hello.txt"), Data: hello, CenExtra: cen, LocExtra: loc, LocExtraSet: true, Comment: []byte("hi")},
				ziptest.Entry{Name: []byte("p/aligned.bin"), Data: bytes.Repeat([]byte{7}, 100),
					LocExtra: ziptest.Alignment(4, 3), LocExtraSet: true},
				ziptest.Entry{Name: []byte("z/Aligned.class"), Data: f.traced, CenExtra: cen,
					LocExtra: append(loc, ziptest.Alignment(4, 1)...), LocExtraSet: true})
		}},
		{name: "zip/defaults (UT, ux, dirs, comment)", build: func(t *testing.T, f *zipFixture) string {
			requireCommand(t, "zip")
			dir := f.tree(t, map[string][]byte{"p/hello.txt": hello, "p/empty.txt": empty})
			p := f.path("zip/defaults")
			run(t, dir, "zip", "-q", "-r", p, "z", "p")
			cmd := exec.Command("zip", "-q", "-z", p)
			cmd.Stdin = strings.NewReader("archive comment from zip -z\n")
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
			return p
		}},
		{name: "zip/no-extras-no-dirs (zip -X -D)", build: func(t *testing.T, f *zipFixture) string {
			requireCommand(t, "zip")
			dir := f.tree(t, map[string][]byte{"p/hello.txt": hello})
			p := f.path("zip/xd")
			run(t, dir, "zip", "-q", "-r", "-X", "-D", p, "z", "p")
			return p
		}},
		// Local headers that disagree with the central directory where Java
		// reads only the central one: sizes and CRC, time, name, extra field.
		{name: "hand/local-header-disagrees", build: func(t *testing.T, f *zipFixture) string {
			other := f.stamp.Add(-48 * time.Hour)
			return f.handZip(t, "hand/loc", ziptest.Options{},
				ziptest.Entry{Name: []byte("p/sizes.txt"), Data: hello, Deflate: true, LocZeroSizes: true},
				ziptest.Entry{Name: []byte("p/time.txt"), Data: hello, LocTime: &other},
				ziptest.Entry{Name: []byte("p/name.txt"), Data: hello, LocName: []byte("P/NAME.TXT")},
				ziptest.Entry{Name: []byte("p/extra.txt"), Data: hello, CenExtra: ziptest.ExtTime(f.stamp),
					LocExtra: ziptest.UnixIDs(0, 0), LocExtraSet: true},
				ziptest.Entry{Name: []byte("z/Loc.class"), Data: f.traced, Deflate: true, LocZeroSizes: true, LocName: []byte("z/LOC.class")})
		}},
		// Names in UTF-8 (flagged, and unflagged but valid) and in CP437.
		{name: "go/utf8-names", build: func(t *testing.T, f *zipFixture) string {
			return f.goZip(t, "go/utf8", func(zw *zip.Writer) {
				f.classes(t, zw)
				goEntry(t, zw, &zip.FileHeader{Name: "p/grüße/日本語.txt", Method: zip.Deflate, Modified: f.stamp}, hello)
			})
		}},
		{name: "hand/utf8-names-unflagged", build: func(t *testing.T, f *zipFixture) string {
			return f.handZip(t, "hand/utf8", ziptest.Options{},
				ziptest.Entry{Name: []byte("p/naïve.txt"), Data: hello},
				ziptest.Entry{Name: []byte("p/flagged-é.txt"), Data: hello, Flags: 0x800})
		}},
		{name: "hand/cp437-ascii-names", build: func(t *testing.T, f *zipFixture) string {
			return f.handZip(t, "hand/cp437-ascii", ziptest.Options{}, ziptest.Entry{Name: []byte("p/plain-ascii.txt"), Data: hello})
		}},
		{name: "hand/cp437-names", refused: true, errEntry: `"p/caf\x82.txt"`, errReason: "not utf-8", build: func(t *testing.T, f *zipFixture) string {
			// "café.txt" in CP437 (é = 0x82), not valid UTF-8: the JVM reads
			// names as UTF-8 and refuses the jar.
			return f.handZip(t, "hand/cp437", ziptest.Options{}, ziptest.Entry{Name: []byte("p/caf\x82.txt"), Data: hello})
		}},
		// The jar command: deflated with descriptors, and stored.
		{name: "jar/create", build: func(t *testing.T, f *zipFixture) string {
			dir := f.tree(t, map[string][]byte{"p/hello.txt": hello, "p/empty.txt": empty})
			p := f.path("jar/create")
			run(t, dir, "jar", "--create", "--file", p, "z", "p")
			return p
		}},
		{name: "jar/no-compress", build: func(t *testing.T, f *zipFixture) string {
			dir := f.tree(t, map[string][]byte{"p/hello.txt": hello, "p/empty.txt": empty})
			p := f.path("jar/stored")
			run(t, dir, "jar", "--create", "--no-compress", "--file", p, "z", "p")
			return p
		}},
		// Multi-release: each version's class is instrumented (see TestMultiReleaseJar).
		{name: "jar/multi-release", build: func(t *testing.T, f *zipFixture) string {
			return f.multiRelease(t)
		}},
		// What Java refuses gets a clear error.
		{name: "hand/bad-local-signature", refused: true, errEntry: "p/hello.txt", errReason: "not a valid zip", build: func(t *testing.T, f *zipFixture) string {
			p := f.handZip(t, "hand/badsig", ziptest.Options{}, ziptest.Entry{Name: []byte("p/hello.txt"), Data: hello})
			data, err := os.ReadFile(p)
			require.NoError(t, err)
			// The third local header (p/hello.txt) gets a wrong signature.
			idx := bytes.LastIndex(data[:bytes.Index(data, []byte("PK\x01\x02"))], []byte("PK\x03\x04"))
			data[idx+3] = 0x05
			require.NoError(t, os.WriteFile(p, data, 0o644))
			return p
		}},
		{name: "hand/truncated", refused: true, errReason: "not a readable jar", build: func(t *testing.T, f *zipFixture) string {
			p := f.handZip(t, "hand/trunc", ziptest.Options{}, ziptest.Entry{Name: []byte("p/hello.txt"), Data: hello})
			data, err := os.ReadFile(p)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(p, data[:len(data)-30], 0o644))
			return p
		}},
	}
}

// multiRelease builds a multi-release jar with the jar command: z/Traced
// for Java 8 at the root, its Java 11 variant under META-INF/versions/11/.
func (f *zipFixture) multiRelease(t *testing.T) string {
	base := f.tree(t, nil)
	v11 := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(v11, "z"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(v11, "z", "Traced.class"), f.v11, 0o644))
	p := f.path("jar/multi-release")
	run(t, base, "jar", "--create", "--file", p, "--main-class", "z.Traced", "-C", base, ".", "--release", "11", "-C", v11, ".")
	return p
}

// TestZipConformance: for every shape of jar Java reads, the output is a
// jar Java reads, with the same entries in the same order and identical
// bytes in every entry but the classes that were instrumented; a jar Java
// refuses is an error that names it (and the entry at fault).
func TestZipConformance(t *testing.T) {
	f := newZipFixture(t)
	cases := zipCases()
	type built struct {
		c        zipCase
		in, out  string
		res      *instrument.Result
		err      error
		skipped  bool
		buildErr bool
	}
	var all []*built
	var jars []string
	for _, c := range cases {
		b := &built{c: c}
		all = append(all, b)
		ok := t.Run("build/"+c.name, func(t *testing.T) {
			b.skipped = true
			b.in = c.build(t, f)
			b.skipped = false
		})
		if !ok || b.skipped {
			b.buildErr = !ok
			continue
		}
		b.out = filepath.Join(f.work, "out-"+filepath.Base(b.in))
		rt := rewrite.DefaultRuntime()
		b.res, b.err = instrument.Run(context.Background(), instrument.Options{
			Inputs: []string{b.in}, Output: b.out, Workers: 2, Runtime: rt,
		})
		jars = append(jars, b.in)
		if b.err == nil {
			jars = append(jars, filepath.Join(b.out, filepath.Base(b.in)))
		}
	}
	java := javatest.JavaReadJars(t, jars...)
	for _, b := range all {
		if b.skipped || b.buildErr {
			continue
		}
		t.Run(b.c.name, func(t *testing.T) {
			in := java[b.in]
			if b.c.refused {
				require.NotEmpty(t, in.Refused, "Java read the input: the case no longer tests a refusal")
				require.Error(t, b.err, "Java refuses the input (%s), instrument accepted it", in.Refused)
				msg := b.err.Error()
				assert.Contains(t, msg, b.in, "the error names the jar")
				assert.Contains(t, msg, b.c.errEntry, "the error names the entry")
				assert.Contains(t, strings.ToLower(msg), b.c.errReason)
				_, statErr := os.Stat(filepath.Join(b.out, filepath.Base(b.in)))
				assert.True(t, os.IsNotExist(statErr), "no output after an error")
				return
			}
			require.Empty(t, in.Refused, "Java must read the input for this case to mean anything")
			require.NoError(t, b.err)
			assert.Empty(t, b.res.Warnings)
			out := java[filepath.Join(b.out, filepath.Base(b.in))]
			require.Empty(t, out.Refused, "Java cannot read the output")
			require.Equal(t, names(in.Entries), names(out.Entries), "entries and their order")
			outClasses := javatest.ClassFiles(t, filepath.Join(b.out, filepath.Base(b.in)))
			rewritten := 0
			for i, e := range in.Entries {
				o := out.Entries[i]
				assert.Equal(t, e.Dir, o.Dir, "%s: directory", e.Name)
				if e.SHA256 == o.SHA256 {
					continue
				}
				// Only classes may differ, and only by what was injected.
				require.True(t, strings.HasSuffix(e.Name, ".class"), "%s: bytes changed", e.Name)
				assert.Contains(t, string(outClasses[e.Name]), "com/tencent/matrix/trace/core/AppMethodBeat", "%s changed without being instrumented", e.Name)
				rewritten++
			}
			assert.Positive(t, rewritten, "z/Traced.class is instrumented")
			assert.Equal(t, b.res.Rewritten, rewritten)
			if plain := indexOf(in.Entries, "z/Plain.class"); plain >= 0 {
				assert.Equal(t, in.Entries[plain].SHA256, out.Entries[plain].SHA256)
			}
			assertSameMetadata(t, b.in, filepath.Join(b.out, filepath.Base(b.in)))
		})
	}
}

func names(es []javatest.JarEntry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Name
	}
	return out
}

func indexOf(es []javatest.JarEntry, name string) int {
	for i, e := range es {
		if e.Name == name {
			return i
		}
	}
	return -1
}

// assertSameMetadata: the archive comment, and each entry's comment,
// time, compression method and external attributes, survive.
func assertSameMetadata(t *testing.T, in, out string) {
	t.Helper()
	zin, err := zip.OpenReader(in)
	require.NoError(t, err)
	defer zin.Close()
	zout, err := zip.OpenReader(out)
	require.NoError(t, err)
	defer zout.Close()
	assert.Equal(t, zin.Comment, zout.Comment, "archive comment")
	require.Equal(t, len(zin.File), len(zout.File))
	for i, a := range zin.File {
		b := zout.File[i]
		assert.Equal(t, a.Comment, b.Comment, "%s: comment", a.Name)
		assert.True(t, a.Modified.Equal(b.Modified), "%s: modified %v, then %v", a.Name, a.Modified, b.Modified)
		assert.Equal(t, a.ExternalAttrs, b.ExternalAttrs, "%s: external attributes", a.Name)
		if a.UncompressedSize64 > 0 {
			assert.Equal(t, a.Method, b.Method, "%s: method", a.Name)
		}
	}
}

// TestMultiReleaseJar: the classes under META-INF/versions/N/ are
// instrumented like any class. A method that several versions declare is
// one method to the map: one line, one id, injected into each version's
// body; a method only one version declares gets its own line. The JVM
// runs the variant of its release, traced and balanced.
func TestMultiReleaseJar(t *testing.T) {
	f := newZipFixture(t)
	in := f.multiRelease(t)
	out, res := runPipeline(t, rewrite.ModeBeat, 2, in)
	require.Empty(t, res.Warnings)
	assert.Equal(t, 2, res.Rewritten, "the root class and its Java 11 variant")
	jar := filepath.Join(out, filepath.Base(in))
	classes := javatest.ClassFiles(t, jar)
	for _, name := range []string{"z/Traced.class", "META-INF/versions/11/z/Traced.class"} {
		assert.Contains(t, string(classes[name]), "com/tencent/matrix/trace/core/AppMethodBeat", name)
	}
	ids := map[string]int{}
	for _, m := range tracedMethods(t, res) {
		if m.Key.Class == "z/Traced" {
			_, dup := ids[m.Key.Name+m.Key.Desc]
			assert.False(t, dup, "%v has two map lines", m.Key)
			ids[m.Key.Name+m.Key.Desc] = m.ID
		}
	}
	assert.Contains(t, ids, "main([Ljava/lang/String;)V")
	assert.Contains(t, ids, "count(I)I")
	before, _, err := javatest.BeatStubJVM(t, in).Run(t, "z.Traced")
	require.NoError(t, err)
	assert.Equal(t, "traced v11 30!\n", before, "Java 17 runs the Java 11 variant")
	after, stderr, err := javatest.BeatStubJVM(t, jar).Run(t, "z.Traced")
	require.NoError(t, err, stderr)
	assert.Equal(t, before, after)
	rep, err := javatest.ParseStubReport(stderr)
	require.NoError(t, err)
	assert.True(t, rep.Balanced(), "%+v", rep)
	assert.Positive(t, rep.Enter)
	v := javatest.RequireVerified(t, jar, javatest.Jar(t, javatest.BeatStub(t)))
	assert.Equal(t, len(v.Classes), len(v.OK))
}

// TestDeclaredSizeBeyondDeflate: an entry whose header declares far more
// than its deflated bytes can hold is damaged. Java's ZipFile reads what
// the stream holds and ignores the size; tracebeat refuses the jar, naming
// the entry, before it makes a buffer of the declared size.
func TestDeclaredSizeBeyondDeflate(t *testing.T) {
	f := newZipFixture(t)
	in := f.handZip(t, "hand/bomb", ziptest.Options{},
		ziptest.Entry{Name: []byte("p/bomb.txt"), Data: []byte("hello"), Deflate: true, DeclaredSize: 900 << 20})
	_, err := instrument.Run(context.Background(), instrument.Options{
		Inputs: []string{in}, Output: t.TempDir(), Workers: 2, Runtime: rewrite.DefaultRuntime(),
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), in)
	assert.Contains(t, err.Error(), "p/bomb.txt: entry declares 943718400 bytes uncompressed from 11 compressed, more than deflate can produce")
}
