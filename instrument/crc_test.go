package instrument_test

import (
	"context"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/instrument"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/internal/javatest"
	"github.com/tracebeat/tracebeat/internal/ziptest"
)

// TestWrongCRC: an entry whose header declares a CRC its contents do not
// have is read as Java's class loader reads it (java.util.zip.ZipFile
// never checks the CRC), with one warning naming the jar and the entry,
// whether the entry is a traced class, an untraced class or a resource,
// stored or deflated. The output is a jar Java reads with the same
// entries; --strict refuses the jar instead, naming the entry. A cached
// run warns the same.
func TestWrongCRC(t *testing.T) {
	f := newZipFixture(t)
	type crcCase struct {
		name    string
		entry   string // the one entry with the wrong CRC
		deflate bool
		traced  bool // rewritten: the output carries a new, right CRC
	}
	var cases []crcCase
	for _, deflate := range []bool{false, true} {
		method := map[bool]string{false: "stored", true: "deflated"}[deflate]
		cases = append(cases,
			crcCase{method + "/traced class", "z/Traced.class", deflate, true},
			crcCase{method + "/untraced class", "z/Plain.class", deflate, false},
			crcCase{method + "/resource", "p/r.txt", deflate, false},
		)
	}
	build := func(c crcCase) string {
		data := map[string][]byte{"z/Traced.class": f.traced, "z/Plain.class": f.plain, "p/r.txt": []byte(strings.Repeat("resource ", 40))}
		var entries []ziptest.Entry
		for _, name := range []string{"z/Plain.class", "z/Traced.class", "p/r.txt"} {
			entries = append(entries, ziptest.Entry{Name: []byte(name), Data: data[name], Deflate: c.deflate,
				Modified: f.stamp, WrongCRC: name == c.entry})
		}
		p := f.path("crc/" + strings.ReplaceAll(c.name, " ", "_"))
		file := mustCreate(t, p)
		require.NoError(t, ziptest.Write(file, entries, ziptest.Options{}))
		require.NoError(t, file.Close())
		return p
	}
	ins := make([]string, len(cases))
	outs := make([]string, len(cases))
	results := make([]*instrument.Result, len(cases))
	var jars []string
	for i, c := range cases {
		ins[i] = build(c)
		out := filepath.Join(f.work, fmt.Sprintf("crc-out-%d", i))
		res, err := instrument.Run(context.Background(), instrument.Options{
			Inputs: []string{ins[i]}, Output: out, Workers: 2, Runtime: rewrite.DefaultRuntime(),
		})
		require.NoError(t, err, c.name)
		results[i], outs[i] = res, filepath.Join(out, filepath.Base(ins[i]))
		jars = append(jars, ins[i], outs[i])
	}
	java := javatest.JavaReadJars(t, jars...)
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, out := java[ins[i]], java[outs[i]]
			require.Empty(t, in.Refused, "Java reads the input: the case means something")
			require.Empty(t, out.Refused, "Java reads the output")
			require.Equal(t, names(in.Entries), names(out.Entries))
			for k, e := range in.Entries {
				o := out.Entries[k]
				if e.Name == "z/Traced.class" {
					assert.NotEqual(t, e.SHA256, o.SHA256, "the traced class is rewritten")
					continue
				}
				assert.Equal(t, e.SHA256, o.SHA256, "%s: contents", e.Name)
			}
			declared, actual := crcOf(t, outs[i], c.entry)
			assert.Equal(t, c.traced, declared == actual, "a rewritten entry gets the CRC of its new contents; one copied as it is keeps the header it had")
			require.Len(t, results[i].Warnings, 1, "one warning: %q", results[i].Warnings)
			assert.Contains(t, results[i].Warnings[0], ins[i]+": "+c.entry+": contents do not match the CRC")

			_, err := instrument.Run(context.Background(), instrument.Options{
				Inputs: []string{ins[i]}, Output: t.TempDir(), Workers: 2, Runtime: rewrite.DefaultRuntime(), Strict: true,
			})
			require.Error(t, err, "--strict refuses it")
			assert.Contains(t, err.Error(), ins[i]+": "+c.entry+": contents do not match the CRC")

			cache := t.TempDir()
			for run := range 2 {
				res, err := instrument.Run(context.Background(), instrument.Options{
					Inputs: []string{ins[i]}, Output: t.TempDir(), Workers: 2, Runtime: rewrite.DefaultRuntime(), Cache: cache,
				})
				require.NoError(t, err)
				assert.Equal(t, results[i].Warnings, res.Warnings, "run %d with a cache warns as one without", run+1)
			}
		})
	}
}

// crcOf returns the CRC entry name of jar declares and the CRC of what
// it holds.
func crcOf(t *testing.T, jar, name string) (declared, actual uint32) {
	t.Helper()
	data, err := os.ReadFile(jar)
	require.NoError(t, err)
	entries, err := ziptest.ReadLikeJava(data)
	require.NoError(t, err)
	for _, e := range entries {
		if e.Name == name {
			return e.DeclaredCRC, crc32.ChecksumIEEE(e.Body)
		}
	}
	t.Fatalf("%s: no entry %s", jar, name)
	return 0, 0
}

func mustCreate(t *testing.T, path string) *os.File {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	file, err := os.Create(path)
	require.NoError(t, err)
	return file
}
