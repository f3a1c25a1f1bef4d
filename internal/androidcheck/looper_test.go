package androidcheck

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tracebeat/tracebeat/internal/javatest"
)

// looperCheck runs LooperCheckTest (the main looper on a thread of its
// own, as on a device) with the app alone and with the beat-instrumented
// app on tracebeat's runtime, at its Android defaults: a slow report for
// each slow message, about the method that made it slow, the two
// identical ones with one key; an ANR report written while the stuck
// message still ran; each message a section of the main thread. It returns
// "looper_slow_reports=N same_key=yes anr_while_running=yes
// message_sections=N looper_output_same=yes".
func looperCheck(t *testing.T, tool, work, testClasses, appJar, instrumented, framework, rt string, runtimeJars []string, props map[string]string) string {
	t.Helper()
	trace := filepath.Join(work, "looper.trace")
	outs := map[string]string{}
	for _, mode := range []string{"plain", "traced"} {
		p := maps.Clone(props)
		outs[mode] = filepath.Join(work, "looper-"+mode+".txt")
		p["tbcheck.looper"] = outs[mode]
		classpath := []string{testClasses, appJar}
		if mode == "traced" {
			p["tracebeat.trace"] = trace
			classpath = []string{testClasses, instrumented, rt}
		}
		jvm := javatest.JVM{Classpath: append(append(classpath, runtimeJars...), framework), Props: p, Timeout: javatest.DefaultTimeout * 3}
		stdout, stderr, err := jvm.Run(t, "org.junit.runner.JUnitCore", "tbcheck.LooperCheckTest")
		if err != nil {
			t.Fatalf("LooperCheckTest (%s): %v\n%s\n%s", mode, err, stdout, stderr)
		}
		if mode == "traced" {
			for _, l := range strings.Split(stderr, "\n") {
				if strings.HasPrefix(l, "tracebeat: ") {
					t.Logf("android-check: looper: %s", l)
				}
			}
		}
	}
	plain, _ := os.ReadFile(outs["plain"])
	traced, _ := os.ReadFile(outs["traced"])
	said, anr, _ := strings.Cut(string(traced), " anr_before_return=")
	same := len(plain) > 0 && string(plain) == said
	if !same {
		t.Errorf("the app's output with the looper watched %q is not its own %q", said, plain)
	}
	if anr != "yes" {
		t.Errorf("the stuck message returned before its ANR report was written (anr_before_return=%q, want yes)", anr)
	}

	methodMap := filepath.Join(filepath.Dir(instrumented), "methodMapping.txt")
	decode := func(file string) string {
		return run(t, tool, "decode", "--map", methodMap, file)
	}
	key := regexp.MustCompile(`stackKey (\S+)`)
	var keys []string
	slow := 0
	for i, want := range []string{"tbapp.Work.slowWork(J)J", "tbapp.Work.slowWork(J)J", "tbapp.Work.stuck(J)V"} {
		file := filepath.Join(work, "looper-slow-"+string(rune('1'+i))+".trace")
		text := decode(file)
		if !strings.Contains(text, "tracebeat report: a slow call: "+want+" took ") {
			t.Errorf("%s is not about %s:\n%s", filepath.Base(file), want, head(text, 8))
			continue
		}
		slow++
		if i == 0 {
			for _, l := range strings.Split(head(text, 6), "\n") {
				t.Logf("android-check: looper-slow-1 | %s", l)
			}
		}
		if m := key.FindStringSubmatch(text); m != nil {
			keys = append(keys, m[1])
		}
	}
	if _, err := os.Stat(filepath.Join(work, "looper-slow-4.trace")); err == nil {
		t.Errorf("a fourth slow report: one a slow message is expected")
		slow++
	}
	sameKey := len(keys) == 3 && keys[0] == keys[1] && keys[1] != keys[2]
	if !sameKey {
		t.Errorf("the stack keys %v: want the two identical slow messages' equal, the stuck one's another", keys)
	}
	anrText := decode(filepath.Join(work, "looper-anr-1.trace"))
	anrRe := regexp.MustCompile(`tracebeat report: an ANR: the main looper's message android\.os\.Handler tbapp\.Work\$\d+ had run for 5\d{3}\.\d{3} ms`)
	anrOK := anrRe.MatchString(anrText) && anr == "yes"
	for _, l := range strings.Split(head(anrText, 5), "\n") {
		t.Logf("android-check: looper-anr-1 | %s", l)
	}
	if !anrRe.MatchString(anrText) {
		t.Errorf("the ANR report does not say the stuck message (want %s):\n%s", anrRe, head(anrText, 8))
	}

	// Every message is a section of the main thread, closed.
	sections := 0
	for _, e := range decodedSlices(t, tool, methodMap, trace, filepath.Join(work, "looper.json")) {
		if strings.HasPrefix(e.Name, "message android.os.Handler tbapp.Work$") {
			sections++
			if e.Args["unclosed"] != nil {
				t.Errorf("the message %s is not closed", e.Name)
			}
		}
	}
	if sections != 4 {
		t.Errorf("%d app messages are sections of the main thread, want the 4 posted", sections)
	}
	return "looper_slow_reports=" + strconv.Itoa(slow) + " same_key=" + yes(sameKey) + " anr_while_running=" + yes(anrOK) +
		" message_sections=" + strconv.Itoa(sections) + " looper_output_same=" + yes(same)
}

func head(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
