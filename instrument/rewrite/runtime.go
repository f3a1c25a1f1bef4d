package rewrite

import "fmt"

// Mode selects what the injected calls report to.
type Mode int

const (
	// ModeBeat calls AppMethodBeat.i(id) / o(id) (Matrix's runtime).
	ModeBeat Mode = iota
	// ModeSystrace calls Trace.beginSection("<id>") / endSection().
	ModeSystrace
)

func (m Mode) String() string {
	if m == ModeSystrace {
		return "systrace"
	}
	return "beat"
}

// ParseMode reads "beat" or "systrace".
func ParseMode(s string) (Mode, error) {
	switch s {
	case "beat", "":
		return ModeBeat, nil
	case "systrace":
		return ModeSystrace, nil
	}
	return 0, fmt.Errorf("unknown mode %q (want beat or systrace)", s)
}

// Runtime names the classes and methods the injected code calls. The
// zero value is not useful; start from DefaultRuntime.
type Runtime struct {
	Mode Mode

	BeatClass string // internal name
	Enter     string // static (I)V
	Exit      string // static (I)V
	Focus     string // static (Landroid/app/Activity;Z)V

	TraceClass string // internal name
	Begin      string // static (Ljava/lang/String;)V
	End        string // static ()V
}

// DefaultRuntime is Matrix's runtime.
func DefaultRuntime() Runtime {
	return Runtime{
		BeatClass:  "com/tencent/matrix/trace/core/AppMethodBeat",
		Enter:      "i",
		Exit:       "o",
		Focus:      "at",
		TraceClass: "android/os/Trace",
		Begin:      "beginSection",
		End:        "endSection",
	}
}

// OrDefault is rt, or Matrix's runtime in rt's mode when rt names no
// beat class (a zero Runtime).
func (rt Runtime) OrDefault() Runtime {
	if rt.BeatClass != "" {
		return rt
	}
	d := DefaultRuntime()
	d.Mode = rt.Mode
	return d
}

const (
	activityClass     = "android/app/Activity"
	FocusMethod       = "onWindowFocusChanged"
	FocusMethodDesc   = "(Z)V"
	focusCallDesc     = "(Landroid/app/Activity;Z)V"
	throwableClass    = "java/lang/Throwable"
	stackMapTableName = "StackMapTable"
)
