package jvmruntime

import (
	"archive/zip"
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"strings"

	"github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/internal/jarpack"
)

//go:embed tracebeat-runtime.jar
var embeddedJar []byte

// DefaultBeatClass is the class beat mode calls unless --beat-class says
// otherwise (internal name).
const DefaultBeatClass = "com/tencent/matrix/trace/core/AppMethodBeat"

// RecorderPackage is the recorder's package (internal name, with a slash at
// the end); instrumenting it would make it record itself.
const RecorderPackage = "com/github/tracebeat/runtime/"

// Jar returns the embedded runtime jar.
func Jar() []byte { return embeddedJar }

const manifest = "Manifest-Version: 1.0\r\nCreated-By: tracebeat (scripts/build-runtime.sh)\r\n\r\n"

// BuildJar packs the class files under dir (javac's -d output) as the
// runtime jar: the manifest first, then the classes in name order, all with
// one fixed time, so the same classes always give the same bytes.
func BuildJar(dir string) ([]byte, error) {
	classes, err := jarpack.ReadTree(dir, func(name string) bool { return strings.HasSuffix(name, ".class") })
	if err != nil {
		return nil, err
	}
	if len(classes) == 0 {
		return nil, fmt.Errorf("%s: no class files", dir)
	}
	return packJar(classes)
}

func packJar(classes map[string][]byte) ([]byte, error) { return jarpack.Pack(manifest, classes) }

// Classes returns the class files of a runtime jar by entry name.
func Classes(jar []byte) (map[string][]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(jar), int64(len(jar)))
	if err != nil {
		return nil, err
	}
	return jarpack.ReadZip(zr, func(name string) bool { return strings.HasSuffix(name, ".class") })
}

// TraceClass is the JVM's stand-in for android.os.Trace (systrace mode);
// on Android the framework's own is the one an app calls.
const TraceClass = "android/os/Trace"

// JarOptions say which runtime jar WriteJar writes.
type JarOptions struct {
	// BeatClass is the beat class's internal name; "" or DefaultBeatClass
	// keeps Matrix's.
	BeatClass string
	// Android leaves out TraceClass: the framework has that class, and a
	// program class of a framework's name is at best ignored by the device
	// and at worst refused by the build.
	Android bool
	// Settings are carried in the jar (SettingsEntry), keyed with their
	// "tracebeat." prefix (ParseSettings).
	Settings map[string]string
}

// WriteJar writes the runtime jar opts describe: the embedded one as it is
// when they change nothing.
func WriteJar(w io.Writer, opts JarOptions) error {
	jar := embeddedJar
	if opts.BeatClass != "" && opts.BeatClass != DefaultBeatClass || opts.Android || len(opts.Settings) > 0 {
		var err error
		if jar, err = rebuiltJar(opts); err != nil {
			return err
		}
	}
	_, err := w.Write(jar)
	return err
}

// rebuiltJar is the runtime jar with the beat class under another name,
// without TraceClass for Android, with the settings given. AppMethodBeat.java
// never names its own class (no static state, no self calls), so a new
// this_class entry is the whole rename.
func rebuiltJar(opts JarOptions) ([]byte, error) {
	beatClass := opts.BeatClass
	if strings.HasPrefix(beatClass, RecorderPackage) || beatClass == TraceClass {
		return nil, fmt.Errorf("beat class %s: that name belongs to the runtime itself", beatClass)
	}
	classes, err := Classes(embeddedJar)
	if err != nil {
		return nil, fmt.Errorf("embedded runtime jar: %w", err)
	}
	if opts.Android {
		delete(classes, TraceClass+".class")
	}
	if len(opts.Settings) > 0 {
		classes[SettingsEntry] = settingsFile(opts.Settings)
	}
	if beatClass == "" || beatClass == DefaultBeatClass {
		return packJar(classes)
	}
	entry := DefaultBeatClass + ".class"
	c, err := classfile.Parse(classes[entry])
	if err != nil {
		return nil, fmt.Errorf("embedded runtime jar: %s: %w", entry, err)
	}
	idx, err := c.Pool.AddClass(beatClass)
	if err != nil {
		return nil, fmt.Errorf("renaming %s to %s: %w", DefaultBeatClass, beatClass, err)
	}
	c.ThisClass = idx
	data, err := c.Encode()
	if err != nil {
		return nil, fmt.Errorf("renaming %s to %s: %w", DefaultBeatClass, beatClass, err)
	}
	delete(classes, entry)
	classes[beatClass+".class"] = data
	return packJar(classes)
}
