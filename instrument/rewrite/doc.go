// Package rewrite turns one class into its traced form: one class in, one
// class out, no zip, no files, no cache.
//
//   - RewriteClass applies a MethodPlan per method: the entry call (after
//     the invokespecial <init> on this, in a constructor; ctorflow.go finds
//     where, stepping each instruction over ctorslots.go's slots that may
//     hold the uninitialized this), the exit before every return, and one catch-all handler that
//     exits and rethrows (inject.go: addCatchAll), with the method's own
//     StackMapTable frames kept and one frame added. AddFocusMethod adds an
//     onWindowFocusChanged that calls the focus runtime.
//   - A method that cannot be rewritten validly (64 KiB of code, a full
//     constant pool, a branch past 32 KiB, max_stack past 65535, a
//     constructor flow it cannot prove) keeps its code; MethodOutcome says
//     why (reason.go).
//   - Runtime names what the injected code calls (Matrix's AppMethodBeat,
//     or android.os.Trace in systrace mode, or a class of the user's).
//   - FindInjected recognises the injected pattern, here where it is
//     written: inspect, check --jar and the pipeline's already-instrumented
//     test use it.
//
// It knows classfile only. Which methods to trace and with which ids is
// the pipeline's business (package instrument, with methodmap's rules).
package rewrite
