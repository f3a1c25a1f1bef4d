// Package javatest is the test-only bridge between tracebeat's Go tests and a
// real JDK: it compiles the Java fixtures under testdata/ with javac, packs
// class directories into deterministic jars, runs programs on the JVM and
// asks HotSpot's own verifier whether rewritten classes are valid.
//
// Only the real verifier is trusted (see REFERENCE.md §5): a class passes
// when HotSpot linked it without a VerifyError and without silently failing
// over to the old type-inferencing verifier.
//
// All helpers take a testing.TB and fail the test on infrastructure errors,
// so call sites stay one line long. Call RequireJava first in every test that
// needs a JDK.
package javatest
