package methodmap

import (
	"testing"
)

// TestClassifyJavac classifies every method javac emits for
// testdata/rules/Rules.java. The expected reasons follow the comments in the
// Java source; every method in the class files must be listed here, so a new
// javac that emits an unexpected method fails the test instead of passing
// silently.
func TestClassifyJavac(t *testing.T) {
	methods := compileFixture(t, "testdata/rules/Rules.java")

	const R, A, I = "fixture/Rules", "fixture/AbstractBase", "fixture/Iface"
	want := map[MethodKey]Reason{
		{R, "<clinit>", "()V"}:                           ReasonGetterSetter,
		{R, "<init>", "()V"}:                             ReasonGetterSetter,
		{R, "<init>", "(I)V"}:                            ReasonGetterSetter,
		{R, "<init>", "(J)V"}:                            Traced,
		{R, "<init>", "(D)V"}:                            Traced,
		{R, "<init>", "(F)V"}:                            Traced,
		{R, "getX", "()I"}:                               ReasonGetterSetter,
		{R, "setX", "(I)V"}:                              ReasonGetterSetter,
		{R, "getS", "()I"}:                               ReasonGetterSetter,
		{R, "at", "(I)I"}:                                ReasonGetterSetter,
		{R, "setBoth", "(I)V"}:                           ReasonGetterSetter,
		{R, "constant", "()J"}:                           ReasonGetterSetter,
		{R, "nothing", "()V"}:                            ReasonEmpty,
		{R, "nothingStatic", "()V"}:                      ReasonEmpty,
		{R, "sum", "(II)I"}:                              ReasonSingle,
		{R, "loop", "()V"}:                               ReasonSingle,
		{R, "store", "(I)V"}:                             ReasonSingle,
		{R, "make", "()Ljava/lang/Object;"}:              Traced,
		{R, "calls", "()V"}:                              Traced,
		{R, "superCall", "()V"}:                          Traced,
		{R, "callsStatic", "()V"}:                        Traced,
		{R, "callsInterface", "(Ljava/lang/Runnable;)V"}: Traced,
		{R, "lambda", "()Ljava/lang/Runnable;"}:          Traced,
		{R, "lambda$lambda$0", "()V"}:                    ReasonEmpty,
		{R, "nat", "()V"}:                                ReasonEmpty,
		{A, "<init>", "()V"}:                             ReasonAbstractClass,
		{A, "a", "()V"}:                                  ReasonAbstractClass,
		{A, "b", "()V"}:                                  ReasonAbstractClass,
		{I, "m", "()V"}:                                  ReasonInterface,
		{I, "d", "()V"}:                                  ReasonInterface,
	}

	seen := map[MethodKey]bool{}
	for _, m := range methods {
		seen[m.Key] = true
		w, ok := want[m.Key]
		if !ok {
			t.Errorf("javac emitted %s, which the test does not expect", m.Key)
			continue
		}
		if got := Classify(m.Info, Options{}); got != w {
			t.Errorf("%s (opcodes % x): got %q, want %q", m.Key, m.Info.Opcodes, got, w)
		}
		// TraceAll traces everything that has code, and nothing else.
		wantAll := Traced
		if m.Info.Opcodes == nil {
			wantAll = ReasonNoCode
		}
		if got := Classify(m.Info, Options{TraceAll: true}); got != wantAll {
			t.Errorf("TraceAll %s: got %q, want %q", m.Key, got, wantAll)
		}
	}
	for k := range want {
		if !seen[k] {
			t.Errorf("expected method %s not found in javac output", k)
		}
	}
}
