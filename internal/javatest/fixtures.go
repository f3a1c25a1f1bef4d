package javatest

import "testing"

// The fixture sets under testdata/, each compiled in one javac run with the
// options below (and cached; see Javac).

// ClassfileOptions are the options of the main class-file fixtures:
// Java 17 with full debug info (-g) and MethodParameters (-parameters).
var ClassfileOptions = Options{Release: 17, Debug: true, Args: []string{"-parameters"}}

// ClassfileFixtures compiles testdata/classfile/src (package cf): records,
// sealed types, nestmates, enums, lambdas, switches, patterns, exceptions,
// synchronization, inner classes, wide locals, goto_w, big switches, ldc_w,
// annotations incl. type annotations in code, generics, indy string concat,
// multianewarray and constructors with uninitialized frames.
func ClassfileFixtures(tb testing.TB) string {
	tb.Helper()
	return Javac(tb, ClassfileOptions, Testdata(tb, "classfile", "src"))
}

// PreviewOptions compile Java 17 preview features (minor version 0xFFFF).
// Running such classes needs JVM.Flags "--enable-preview".
var PreviewOptions = Options{Release: 17, EnablePreview: true, Debug: true}

// ClassfilePreviewFixtures compiles testdata/classfile/preview (package
// cfpreview: pattern matching for switch, with a main).
func ClassfilePreviewFixtures(tb testing.TB) string {
	tb.Helper()
	return Javac(tb, PreviewOptions, Testdata(tb, "classfile", "preview"))
}

// Release8Options compile class-file version 52 (no nestmates, no indy
// string concatenation).
var Release8Options = Options{Release: 8, Debug: true}

// ClassfileRelease8Fixtures compiles testdata/classfile/release8 (package
// cf8, cf8.Legacy has a main).
func ClassfileRelease8Fixtures(tb testing.TB) string {
	tb.Helper()
	return Javac(tb, Release8Options, Testdata(tb, "classfile", "release8"))
}

// InstrumentOptions compile the instrumenter fixtures: Java 17 with debug
// info, against the beat stub (for android.app.Activity).
func InstrumentOptions(tb testing.TB) Options {
	tb.Helper()
	return Options{Release: 17, Debug: true, Classpath: []string{BeatStub(tb)}}
}

// InstrumentFixtures compiles testdata/instrument/src (package ins): the
// programs the instrumenter rewrites and the tests run before and after,
// with the counting stub (BeatStubJVM) on the class path.
func InstrumentFixtures(tb testing.TB) string {
	tb.Helper()
	return Javac(tb, InstrumentOptions(tb), Testdata(tb, "instrument", "src"))
}

// InstrumentPrograms are the main classes of the instrumenter fixtures.
// Each prints one deterministic line starting with its own name, so the
// output of the original and the instrumented program must be identical.
// ins.AllPrograms runs all of them in one JVM, in this order.
var InstrumentPrograms = []string{
	"ins.Throwing",     // exceptions through frames, rethrow, finally with returns
	"ins.Locking",      // synchronized methods/blocks left by exceptions; monitors must be free
	"ins.Construction", // constructors throwing before and after super(), this(...), new in arguments
	"ins.Recursion",    // fib, mutual, 3000 deep, 3000 deep unwound by an exception
	"ins.Functional",   // lambdas and method references, one throwing
	"ins.StaticInit",   // <clinit> normal, throwing (ExceptionInInitializerError), chained
	"ins.Threads",      // 4 named threads ("worker-N") with nested calls and exceptions
	"ins.Focus",        // onWindowFocusChanged on the Activity chain
	"ins.Returns",      // every return type, many returns per method
	"ins.Big",          // methods at the 32 KiB branch and 64 KiB code limits
}

// FocusActivities are the activity classes on which ins.Focus calls
// onWindowFocusChanged(true) exactly once each: after instrumentation the
// stub's FocusByClass must hold exactly these, each with count 1.
// (ins.NotAnActivity has the same method but is no Activity.)
var FocusActivities = []string{
	"ins.DirectActivity", // overrides without calling super
	"ins.Focus$1",        // anonymous subclass of Activity, calls super
	"ins.MainActivity",   // overrides and calls super through abstract BaseActivity
	"ins.PlainActivity",  // no override below Activity (abstract BaseActivity in between)
	"ins.SecondActivity", // inherits MainActivity's override
}

// BigMethods names the generated methods of ins.Big that sit at the limits
// (descriptor (I)I): instrumenting nearBranchLimit pushes a 16-bit branch
// past 32767 bytes; nearCodeLimit cannot grow at all without exceeding
// 65535 bytes of code.
var BigMethods = []string{"nearBranchLimit", "nearCodeLimit"}
