package androidcheck

import (
	"bufio"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tracebeat/tracebeat/decode/recording"
	"github.com/tracebeat/tracebeat/internal/javatest"
)

// budgetBytes is a budget far below what RuntimeCheckTest's threads
// record (about 6,000 records in the two background threads alone): the
// rings must stay within it, and say what they lost.
const budgetBytes = 4096

// budgetCheck runs RuntimeCheckTest on tracebeat's runtime with a 4 KiB
// budget, as the JVM runtime bounds it: a ring per thread, all of them
// within the budget together, the records that did not fit counted as
// lost, and the app's output its own. It returns "budget_kept=N
// budget_lost=N within_budget=yes".
func budgetCheck(t *testing.T, work, testClasses, instrumented, framework, rt string, runtimeJars []string, props map[string]string, wantOut string) string {
	t.Helper()
	p := maps.Clone(props)
	trace := filepath.Join(work, "budget.trace")
	out := filepath.Join(work, "budget-out.txt")
	p["tracebeat.trace"] = trace
	p["tracebeat.budget"] = strconv.Itoa(budgetBytes)
	p["tbcheck.out"] = out
	jvm := javatest.JVM{Classpath: append(append([]string{testClasses, instrumented, rt}, runtimeJars...), framework), Props: p, Timeout: javatest.DefaultTimeout * 3}
	if stdout, stderr, err := jvm.Run(t, "org.junit.runner.JUnitCore", "tbcheck.RuntimeCheckTest"); err != nil {
		t.Fatalf("RuntimeCheckTest (budget %d): %v\n%s\n%s", budgetBytes, err, stdout, stderr)
	}
	said, _ := os.ReadFile(out)
	if string(said) != wantOut {
		t.Errorf("with a %d-byte budget the app said %q, want its own %q", budgetBytes, said, wantOut)
	}
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := recording.Read(bufio.NewReader(f), trace)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Budget != budgetBytes {
		t.Errorf("the recording states a budget of %d bytes, want %d", rec.Budget, budgetBytes)
	}
	var kept, lost int64
	threads := 0
	for {
		th, err := rec.NextThread()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		threads++
		kept += int64(th.Records)
		lost += th.Lost
		if err := rec.Records(func(bool, int, uint64) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	// A record is a 4-byte slot of a ring; the rings' time marks take
	// slots too, so the records kept are fewer than the budget's slots.
	within := kept*4 <= budgetBytes && threads >= 3
	if !within {
		t.Errorf("%d threads kept %d records (%d bytes), want at least 3 threads within the %d-byte budget", threads, kept, kept*4, budgetBytes)
	}
	if lost == 0 {
		t.Errorf("no records lost within a %d-byte budget: want the oldest records of the busiest rings counted as lost", budgetBytes)
	}
	yes := "no"
	if within && lost > 0 {
		yes = "yes"
	}
	return "budget_kept=" + strconv.FormatInt(kept, 10) + " budget_lost=" + strconv.FormatInt(lost, 10) + " within_budget=" + yes
}
