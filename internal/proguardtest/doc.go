// Package proguardtest runs the real ProGuard (Debian's proguard-cli, which
// is ProGuard 6.2.2) for tests and the demo.
//
// ProGuard needs the JDK's own classes as -libraryjars to know which methods
// override library methods (those keep their names). A JDK 9+ ships them
// only as jmods with class-file versions ProGuard 6 refuses, so
// WriteLibraryJar extracts java.base and rewrites each class's major version
// to 52 (Java 8): the classes are read for names and the hierarchy only,
// never run. That part has no test dependency, so the demo's tool
// internal/tools/jdklib shares it.
//
// The test helpers (Require, LibraryJar, Run) take a testing.TB and fail the
// test on infrastructure errors. A missing tool skips the test, except on CI
// (CI=true), where it fails so the gap is noticed.
package proguardtest
