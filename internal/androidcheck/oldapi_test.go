package androidcheck

import (
	"bytes"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/classfile/apiref"
	"github.com/tracebeat/tracebeat/internal/javatest"
	"github.com/tracebeat/tracebeat/jvmruntime"
)

// loadedWherePresent are the runtime's classes that name what Android 5.0
// lacks, each loaded only where that is there: they alone may.
var loadedWherePresent = map[string]string{
	"NioFiles":       "",                     // Platform.NIO_FILES: a JVM, Android 8.0+
	"VirtualThreads": "java/lang/invoke/",    // off Android only (ThreadLog)
	"TraceFile":      "java/lang/management", // pid(): any Throwable taken for pid 0
}

// linkCheck: the Android runtime (`tracebeat runtime
// --android`) names nothing Android 5.0 (API 21) lacks, but from the
// classes loaded only where it is there. Two checks, as far as Maven
// Central's artifacts reach: the runtime's sources compile against Java
// 7's API (javac --release 7: no Java 8 library call, which Android has
// from 7.0 or 8.0 only), and every class and member its class files name
// outside java.lang is in Android 5.0's framework and libcore
// (Robolectric's android-all 5.0.2, which leaves java.lang out). A class
// that failed to link on an old device would fail at the app's first
// traced call.
// It returns "api21_links=yes" (no when something is missing).
func linkCheck(t *testing.T, lib string) string {
	t.Helper()
	failed := t.Failed()
	root := javatest.RepoRoot(t)
	javatest.Javac(t, javatest.Options{Release: 7, Args: []string{"-Xlint:-options", "-implicit:none", "-sourcepath", filepath.Join(root, "jvmruntime", "stub")}},
		filepath.Join(root, "jvmruntime", "java"))

	var jar bytes.Buffer
	if err := jvmruntime.WriteJar(&jar, jvmruntime.JarOptions{Android: true}); err != nil {
		t.Fatal(err)
	}
	classes, err := jvmruntime.Classes(jar.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	own := func(class string) bool { _, ok := classes[class+".class"]; return ok }
	refs, err := apiref.Refs(classes, func(class string) bool { return !own(class) }, nil)
	if err != nil {
		t.Fatal(err)
	}
	api21, err := apiref.Load(filepath.Join(lib, oldestAll))
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]classfile.MemberRef, 0, len(refs))
	for r := range refs {
		keys = append(keys, r)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i].Class+keys[i].Name+keys[i].Descriptor < keys[j].Class+keys[j].Name+keys[j].Descriptor
	})
	checked, javaLang, guarded := 0, 0, 0
	for _, r := range keys {
		users := refs[r]
		what := r.Class
		if r.Name != "" {
			what += "." + r.Name + r.Descriptor
		}
		if wherePresent(r.Class, users) {
			guarded++
			continue
		}
		if strings.HasPrefix(r.Class, "java/lang/") {
			if strings.HasPrefix(r.Class, "java/lang/invoke/") || strings.HasPrefix(r.Class, "java/lang/management") {
				t.Errorf("%s: Android 5.0 has no %s, and %v load there", what, r.Class, users)
			}
			javaLang++ // Java 7's, checked by the compile above
			continue
		}
		checked++
		if found, _ := api21.Has(r); found == "" && !inheritedFromJavaLang(api21, r.Class) {
			t.Errorf("%s, named by %v, is not in Android 5.0 (API 21)", what, users)
		}
	}
	t.Logf("android-check: runtime on API 21: %d names checked in Android 5.0's classes, %d of java.lang against Java 7's API, %d in classes loaded only where they exist", checked, javaLang, guarded)
	if checked == 0 {
		t.Errorf("no names checked: the runtime jar's classes were not read")
	}
	if t.Failed() && !failed {
		return "api21_links=no"
	}
	return "api21_links=yes"
}

// inheritedFromJavaLang: class, in the API, has a java.lang supertype the
// API leaves out (IOException's Throwable), where the member may be.
func inheritedFromJavaLang(api *apiref.Index, class string) bool {
	outside := api.Outside(class)
	if len(outside) == 0 || outside[0] == class {
		return false
	}
	for _, o := range outside {
		if !strings.HasPrefix(o, "java/lang/") {
			return false
		}
	}
	return true
}

// wherePresent: every class that names class loads only where it exists.
func wherePresent(class string, users []string) bool {
	for _, u := range users {
		prefix, ok := loadedWherePresent[u]
		if !ok || !strings.HasPrefix(class, prefix) {
			return false
		}
	}
	return true
}
