package apiref_test

import (
	"archive/zip"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/classfile/apiref"
	"github.com/tracebeat/tracebeat/internal/javatest"
)

// apiClasses compiles an API of testdata (api: Base, Shape, Circle,
// Retired, Marker; api2: a later jar's Base and Extra).
func apiClasses(t *testing.T, which string) map[string][]byte {
	t.Helper()
	return javatest.ClassFiles(t, javatest.Javac(t, javatest.Options{Release: 8}, filepath.Join("testdata", which)))
}

func load(t *testing.T, jars ...string) *apiref.Index {
	t.Helper()
	idx, err := apiref.Load(jars...)
	require.NoError(t, err)
	return idx
}

func method(class, name, desc string) classfile.MemberRef {
	return classfile.MemberRef{Tag: classfile.TagMethodref, Class: class, Name: name, Descriptor: desc}
}

func field(class, name, desc string) classfile.MemberRef {
	return classfile.MemberRef{Tag: classfile.TagFieldref, Class: class, Name: name, Descriptor: desc}
}

func TestHasResolvesAsTheJVMDoes(t *testing.T) {
	idx := load(t, javatest.WriteJar(t, apiClasses(t, "api")))
	for _, tc := range []struct {
		name       string
		ref        classfile.MemberRef
		found      string
		deprecated bool
	}{
		{"a class", classfile.MemberRef{Class: "api/Circle"}, "api/Circle", false},
		{"a deprecated class", classfile.MemberRef{Class: "api/Retired"}, "api/Retired", true},
		{"a class the API lacks", classfile.MemberRef{Class: "api/Extra"}, "", false},
		{"a method of the class itself", method("api/Circle", "compareTo", "(Lapi/Circle;)I"), "api/Circle", false},
		{"a method of the superclass", method("api/Circle", "run", "()V"), "api/Base", false},
		{"the superclass before an interface", method("api/Circle", "area", "()D"), "api/Base", false},
		{"an interface's own method", classfile.MemberRef{Tag: classfile.TagInterfaceMethodref, Class: "api/Shape", Name: "area", Descriptor: "()D"}, "api/Shape", false},
		{"a default method through the class", method("api/Circle", "label", "()Ljava/lang/String;"), "api/Shape", false},
		{"a deprecated method", method("api/Circle", "old", "()V"), "api/Base", true},
		{"a method of a deprecated class", method("api/Retired", "call", "()V"), "api/Retired", true},
		{"a field of the superclass", field("api/Circle", "count", "I"), "api/Base", false},
		{"a field is not a method", field("api/Circle", "run", "()V"), "", false},
		{"a method is not a field", method("api/Circle", "count", "I"), "", false},
		{"another descriptor", method("api/Circle", "run", "(I)V"), "", false},
		{"a member of a supertype outside the API", method("api/Circle", "hashCode", "()I"), "", false},
		{"a member of a class the API lacks", method("api/Missing", "run", "()V"), "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			found, deprecated := idx.Has(tc.ref)
			assert.Equal(t, tc.found, found)
			assert.Equal(t, tc.deprecated, deprecated)
		})
	}
}

// withoutAttribute re-encodes a class with the attributes named drop taken
// off the class and each of its methods.
func withoutAttribute(t *testing.T, data []byte, drop string) []byte {
	t.Helper()
	c, err := classfile.Parse(data)
	require.NoError(t, err)
	keep := func(attrs []classfile.Attribute) []classfile.Attribute {
		return slices.DeleteFunc(attrs, func(a classfile.Attribute) bool {
			name, _ := c.Pool.Utf8(a.Name)
			return name == drop
		})
	}
	c.Attributes = keep(c.Attributes)
	for i := range c.Methods {
		c.Methods[i].Attributes = keep(c.Methods[i].Attributes)
	}
	out, err := c.Encode()
	require.NoError(t, err)
	return out
}

// javac marks @Deprecated twice, with the Deprecated attribute and the
// annotation; other compilers (Kotlin's, for Java's annotation) may write
// the annotation alone, and either is enough.
func TestHasReadsEitherMarkOfDeprecation(t *testing.T) {
	classes := apiClasses(t, "api")
	for _, tc := range []struct {
		name       string
		drop       []string
		deprecated bool
	}{
		{"as javac writes them", nil, true},
		{"the annotation alone", []string{"Deprecated"}, true},
		{"the attribute alone", []string{"RuntimeVisibleAnnotations"}, true},
		{"neither", []string{"Deprecated", "RuntimeVisibleAnnotations"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			changed := map[string][]byte{}
			for name, data := range classes {
				for _, drop := range tc.drop {
					data = withoutAttribute(t, data, drop)
				}
				changed[name] = data
			}
			idx := load(t, javatest.WriteJar(t, changed))
			_, deprecated := idx.Has(method("api/Circle", "old", "()V"))
			assert.Equal(t, tc.deprecated, deprecated, "a method")
			_, deprecated = idx.Has(classfile.MemberRef{Class: "api/Retired"})
			assert.Equal(t, tc.deprecated, deprecated, "a class")
			_, deprecated = idx.Has(method("api/Retired", "call", "()V"))
			assert.Equal(t, tc.deprecated, deprecated, "a member of the class")
			_, deprecated = idx.Has(method("api/Circle", "run", "()V"))
			assert.False(t, deprecated, "a method not marked")
		})
	}
}

func TestLoadTakesTheFirstJarsClass(t *testing.T) {
	first := javatest.WriteJar(t, apiClasses(t, "api"))
	later := javatest.WriteJar(t, apiClasses(t, "api2"))
	idx := load(t, first, later)
	found, _ := idx.Has(method("api/Base", "run", "()V"))
	assert.Equal(t, "api/Base", found, "the first jar's Base")
	found, _ = idx.Has(method("api/Base", "extra", "()V"))
	assert.Empty(t, found, "the later jar's Base is hidden")
	found, _ = idx.Has(classfile.MemberRef{Class: "api/Extra"})
	assert.Equal(t, "api/Extra", found, "a class only the later jar holds")

	idx = load(t, later, first)
	found, _ = idx.Has(method("api/Base", "extra", "()V"))
	assert.Equal(t, "api/Base", found)
	found, _ = idx.Has(method("api/Base", "run", "()V"))
	assert.Empty(t, found)
}

// rawJar writes entries as they are (stored, with the CRC given or the
// right one when crc is 0), so that a test can make one unreadable.
func rawJar(t *testing.T, entries []rawEntry) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "raw.jar")
	f, err := os.Create(path)
	require.NoError(t, err)
	zw := zip.NewWriter(f)
	for _, e := range entries {
		crc := e.crc
		if crc == 0 {
			crc = crc32.ChecksumIEEE(e.data)
		}
		w, err := zw.CreateRaw(&zip.FileHeader{Name: e.name, Method: e.method, CRC32: crc,
			CompressedSize64: uint64(len(e.data)), UncompressedSize64: uint64(len(e.data))})
		require.NoError(t, err)
		_, err = w.Write(e.data)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	require.NoError(t, f.Close())
	return path
}

type rawEntry struct {
	name   string
	method uint16
	crc    uint32
	data   []byte
}

func TestReadClassesTakesClassesOnly(t *testing.T) {
	base := apiClasses(t, "api")["api/Base.class"]
	jar := javatest.WriteJar(t, map[string][]byte{
		"api/Base.class":                         base,
		"api/notes.txt":                          []byte("not a class"),
		"META-INF/versions/9/api/Shadow.class":   []byte("not read"),
		"META-INF/MANIFEST.MF":                   []byte("Manifest-Version: 1.0\n"),
		"api/nested/dir/":                        nil,
		"api/nested/dir/Base.class.bak":          []byte("not a class either"),
		"api/with.class/Base.class.unused":       []byte("nor this"),
		"api/meta/META-INF/versions/Fine.class":  base,
		"api/meta/META-INF/versions/Fine.txt":    nil,
		"api/meta/META-INF/versions/Fine2.class": base,
	})
	classes, err := apiref.ReadClasses(jar)
	require.NoError(t, err)
	names := make([]string, 0, len(classes))
	for name := range classes {
		names = append(names, name)
	}
	slices.Sort(names)
	assert.Equal(t, []string{"api/Base", "api/meta/META-INF/versions/Fine", "api/meta/META-INF/versions/Fine2"}, names)
	got, err := classes["api/Base"].Name()
	require.NoError(t, err)
	assert.Equal(t, "api/Base", got)
}

func TestReadClassesNamesTheJarAndEntry(t *testing.T) {
	base := apiClasses(t, "api")["api/Base.class"]
	for _, tc := range []struct {
		name    string
		entries []rawEntry
		want    string
	}{
		{"not a class", []rawEntry{{name: "api/A.class", data: base}, {name: "api/Bad.class", data: []byte("CAFE")}}, "!api/Bad.class: "},
		{"a method zip cannot read", []rawEntry{{name: "api/Odd.class", method: 99, data: base}}, "!api/Odd.class: zip: unsupported compression algorithm"},
		{"a wrong CRC", []rawEntry{{name: "api/Sum.class", crc: 1, data: base}}, "!api/Sum.class: zip: checksum error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			jar := rawJar(t, tc.entries)
			_, err := apiref.ReadClasses(jar)
			require.Error(t, err)
			assert.Contains(t, err.Error(), jar+tc.want)

			_, err = apiref.Load(javatest.WriteJar(t, map[string][]byte{"api/Base.class": base}), jar)
			require.Error(t, err, "Load fails on a later jar")
			assert.Contains(t, err.Error(), jar+tc.want)
		})
	}
	_, err := apiref.Load(filepath.Join(t.TempDir(), "missing.jar"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestOutsideListsTheSupertypesTheAPILacks(t *testing.T) {
	idx := load(t, javatest.WriteJar(t, apiClasses(t, "api")))
	for _, tc := range []struct {
		class string
		want  []string
	}{
		// Circle, Base, Object; then Circle's interfaces: Shape (whose
		// Object was seen), Serializable, and Comparable.
		{"api/Circle", []string{"java/lang/Object", "java/io/Serializable", "java/lang/Comparable"}},
		{"api/Shape", []string{"java/lang/Object", "java/io/Serializable"}},
		{"api/Base", []string{"java/lang/Object"}},
		{"api/Missing", []string{"api/Missing"}},
	} {
		assert.Equal(t, tc.want, idx.Outside(tc.class), tc.class)
	}
}

// handClass is a class file of no members whose pool holds the
// superclass first, at index 1 (as javac never lays it out), or none
// when super is "" (as java/lang/Object's own file).
func handClass(this, super string) []byte {
	b := binary.BigEndian.AppendUint32(nil, 0xCAFEBABE)
	b = binary.BigEndian.AppendUint16(b, 0)  // minor
	b = binary.BigEndian.AppendUint16(b, 52) // Java 8
	names := []string{this}
	if super != "" {
		names = []string{super, this}
	}
	b = binary.BigEndian.AppendUint16(b, uint16(2*len(names)+1))
	for i, name := range names {
		b = append(b, classfile.TagClass)
		b = binary.BigEndian.AppendUint16(b, uint16(2*i+2))
		b = append(b, classfile.TagUtf8)
		b = binary.BigEndian.AppendUint16(b, uint16(len(name)))
		b = append(b, name...)
	}
	b = binary.BigEndian.AppendUint16(b, 0x21) // public super
	thisIndex, superIndex := uint16(1), uint16(0)
	if super != "" {
		thisIndex, superIndex = 3, 1
	}
	b = binary.BigEndian.AppendUint16(b, thisIndex)
	b = binary.BigEndian.AppendUint16(b, superIndex)
	return append(b, make([]byte, 8)...) // no interfaces, fields, methods or attributes
}

// The superclass is named by any pool index, 1 too; a class with none is
// a root of the walk.
func TestSuperclassAtAnyIndex(t *testing.T) {
	classes := apiClasses(t, "api")
	classes["api/Sub.class"] = handClass("api/Sub", "api/Base")
	classes["api/Root.class"] = handClass("api/Root", "")
	idx := load(t, javatest.WriteJar(t, classes))
	found, _ := idx.Has(method("api/Sub", "run", "()V"))
	assert.Equal(t, "api/Base", found)
	assert.Equal(t, []string{"java/lang/Object"}, idx.Outside("api/Sub"))
	assert.Empty(t, idx.Outside("api/Root"))
	found, _ = idx.Has(method("api/Root", "run", "()V"))
	assert.Empty(t, found)
}

// userRefs is Refs over testdata/user's classes compiled against the API,
// a text file beside them.
func userRefs(t *testing.T, keep func(string) bool, annotation func(string) bool) map[classfile.MemberRef][]string {
	t.Helper()
	api := javatest.Javac(t, javatest.Options{Release: 8}, filepath.Join("testdata", "api"))
	classes := javatest.ClassFiles(t, javatest.Javac(t, javatest.Options{Release: 8, Classpath: []string{api}}, filepath.Join("testdata", "user")))
	classes["app/notes.txt"] = []byte("not a class")
	refs, err := apiref.Refs(classes, keep, annotation)
	require.NoError(t, err)
	for _, users := range refs {
		slices.Sort(users)
	}
	return refs
}

func TestRefsListsWhatTheClassesName(t *testing.T) {
	inAPI := func(class string) bool { return strings.HasPrefix(class, "api/") }
	main := []string{"Main"}
	want := map[classfile.MemberRef][]string{
		{Class: "api/Circle"}:                 main,
		{Class: "api/Shape"}:                  main, // the pool names the type of the call
		{Class: "api/Base"}:                   main, // from [[Lapi/Base; of the array
		{Class: "api/Retired"}:                {"Main", "Other"},
		method("api/Circle", "<init>", "()V"): main,
		method("api/Circle", "run", "()V"):    main,
		field("api/Circle", "count", "I"):     main,
		method("api/Retired", "call", "()V"):  {"Main", "Other"},
		{Tag: classfile.TagInterfaceMethodref, Class: "api/Shape", Name: "area", Descriptor: "()D"}: main,
	}
	got := userRefs(t, inAPI, nil)
	assert.Equal(t, want, got)

	want[classfile.MemberRef{Class: "api/Marker"}] = main
	got = userRefs(t, inAPI, func(descriptor string) bool { return descriptor == "Lapi/Marker;" })
	assert.Equal(t, want, got, "with the annotation's type")
}

// Refs keeps what keep accepts, and never a primitive's one-letter name
// from an array of ints.
func TestRefsKeepsWhatKeepAccepts(t *testing.T) {
	got := userRefs(t, func(string) bool { return true }, nil)
	var classes []string
	for ref := range got {
		if ref.Name == "" {
			classes = append(classes, ref.Class)
		}
	}
	slices.Sort(classes)
	assert.Contains(t, classes, "java/lang/System")
	assert.Contains(t, classes, "api/Base")
	for _, c := range classes {
		assert.Greater(t, len(c), 1, "a primitive's name: %q", c)
	}
	assert.Equal(t, []string{"Main"}, got[method("java/io/PrintStream", "println", "(I)V")])
	// The pool's first entry: javac's call of the superclass's constructor.
	assert.Equal(t, []string{"Go", "Main", "Other"}, got[method("java/lang/Object", "<init>", "()V")])
	// A class of the default package, named in two letters.
	assert.Equal(t, []string{"Go"}, got[classfile.MemberRef{Class: "Go"}])
}

func TestRefsNamesAClassItCannotParse(t *testing.T) {
	_, err := apiref.Refs(map[string][]byte{"app/Bad.class": []byte("CAFE")}, func(string) bool { return true }, nil)
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "app/Bad.class: "), err.Error())
}
