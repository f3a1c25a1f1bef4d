package moderngate

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tracebeat/tracebeat/internal/javatest"
)

// toolchain runs the compilers of the gate: Kotlin 2 from Maven Central
// (K2JVMCompiler on the JDK on PATH), Temurin 25's javac and jar, and
// ProGuard 7.
type toolchain struct {
	lib    string // the jars scripts/modern-gate.sh fetched
	java25 string // a JDK 25 home
	work   string
}

func (tc toolchain) jar(name string) string { return filepath.Join(tc.lib, name) }

func (tc toolchain) jars(names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = tc.jar(n)
	}
	return out
}

// kotlinCompiler is the class path of K2JVMCompiler.
func (tc toolchain) kotlinCompiler() []string {
	return tc.jars(compilerJar, "kotlin-stdlib-"+kotlinVersion+".jar", "kotlin-script-runtime-"+kotlinVersion+".jar",
		"kotlin-reflect-"+kotlinVersion+".jar", "kotlin-daemon-embeddable-"+kotlinVersion+".jar",
		coroutinesJar, "annotations-13.0.jar")
}

func cp(paths ...string) string { return strings.Join(paths, string(os.PathListSeparator)) }

func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
	return string(out)
}

// kotlinc compiles the .kt files below srcDir with K2 against classpath
// into a jar; extra are compiler flags (-Xlambdas=class, -Xplugin=...).
// compiler is the class path the compiler itself runs from.
func (tc toolchain) kotlinc(t *testing.T, compiler []string, java, name, srcDir string, classpath []string, extra ...string) string {
	t.Helper()
	out := filepath.Join(tc.work, "classes", name)
	var srcs []string
	filepath.WalkDir(srcDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".kt") {
			srcs = append(srcs, p)
		}
		return err
	})
	args := append([]string{"-cp", cp(compiler...), "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler",
		"-no-stdlib", "-no-reflect", "-jvm-target", "17", "-classpath", cp(classpath...), "-d", out}, extra...)
	run(t, java, append(args, srcs...)...)
	return out
}

// javac compiles every .java file below srcDir with Temurin 25's javac.
func (tc toolchain) javac(t *testing.T, name, srcDir string, release int, classpath []string) string {
	t.Helper()
	out := filepath.Join(tc.work, "classes", name)
	var srcs []string
	filepath.WalkDir(srcDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".java") {
			srcs = append(srcs, p)
		}
		return err
	})
	args := []string{"--release", fmt.Sprint(release), "-nowarn", "-d", out}
	if len(classpath) > 0 {
		args = append(args, "-cp", cp(classpath...))
	}
	run(t, filepath.Join(tc.java25, "bin", "javac"), append(args, srcs...)...)
	return out
}

// packJar packs a class directory into work/jars/name.jar (deterministic).
func (tc toolchain) packJar(t *testing.T, name, dir string) string {
	t.Helper()
	dst := filepath.Join(tc.work, "jars", name+".jar")
	data, err := os.ReadFile(javatest.Jar(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// fixtures are the jars the gate compiles, and what it ran them with.
type fixtures struct {
	kotlinIndy, kotlinClass string // Kotlin 2: lambdas as invokedynamic, as classes
	compose                 string // the headless composition, with the Compose compiler plugin
	java21, java25, release string // Java 21 and 25 fixtures; a multi-release jar made by jar 25
	client                  string // the OkHttp + Retrofit + Moshi client
	obfuscated, mapping     string // the coroutine program shrunk and obfuscated by ProGuard 7, and its mapping
	shapesSource            string // what the Kotlin compiler compiles from its instrumented jars
}

// buildFixtures compiles every fixture of the gate; the compilers run in
// parallel (each is a JVM of its own).
func (tc toolchain) buildFixtures(t *testing.T, root string) fixtures {
	t.Helper()
	src := func(p ...string) string { return filepath.Join(append([]string{root, "testdata", "modern"}, p...)...) }
	java17 := "java"
	ktLibs := tc.jars("kotlin-stdlib-"+kotlinVersion+".jar", coroutinesJar)
	composeLibs := append(tc.jars(composeRuntimeJar, "runtime-annotation-jvm-1.12.1.jar", "collection-jvm-1.5.0.jar", "annotation-jvm-1.9.1.jar"), ktLibs...)
	var f fixtures
	var wg sync.WaitGroup
	parallel := func(fn func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn()
		}()
	}
	compiler := tc.kotlinCompiler()
	parallel(func() {
		f.kotlinIndy = tc.packJar(t, "kotlin-indy", tc.kotlinc(t, compiler, java17, "kotlin-indy", src("kotlin"), ktLibs))
	})
	parallel(func() {
		f.kotlinClass = tc.packJar(t, "kotlin-class", tc.kotlinc(t, compiler, java17, "kotlin-class", src("kotlin"), ktLibs,
			"-Xlambdas=class", "-Xsam-conversions=class"))
	})
	parallel(func() {
		f.compose = tc.packJar(t, "compose-headless", tc.kotlinc(t, compiler, java17, "compose", src("compose"), composeLibs,
			"-Xplugin="+tc.jar("kotlin-compose-compiler-plugin-embeddable-"+kotlinVersion+".jar")))
	})
	parallel(func() {
		j21 := tc.javac(t, "java21", src("java21"), 21, nil)
		f.java21 = tc.packJar(t, "java21", j21)
		f.java25 = tc.packJar(t, "java25", tc.javac(t, "java25", src("java25"), 25, []string{j21}))
		base := tc.javac(t, "release-base", src("release", "base"), 17, nil)
		v25 := tc.javac(t, "release-25", src("release", "25"), 25, nil)
		f.release = filepath.Join(tc.work, "jars", "multi-release.jar")
		os.MkdirAll(filepath.Dir(f.release), 0o755)
		run(t, filepath.Join(tc.java25, "bin", "jar"), "--create", "--file", f.release, "-C", base, ".", "--release", "25", "-C", v25, ".")
		f.client = tc.packJar(t, "client", tc.javac(t, "client", src("client"), 17, tc.libraryJars()))
	})
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	f.obfuscated, f.mapping = tc.proguard(t, root, f.kotlinIndy, ktLibs)
	f.shapesSource = src("kotlin", "modern", "kt", "Shapes.kt")
	return f
}

// libraryJars are every jar scripts/modern-gate.sh fetched.
func (tc toolchain) libraryJars() []string {
	entries, _ := filepath.Glob(filepath.Join(tc.lib, "*.jar"))
	return entries
}

// proguard shrinks and obfuscates the coroutine program with ProGuard 7,
// keeping only its main: the result and the mapping.
func (tc toolchain) proguard(t *testing.T, root, in string, libs []string) (string, string) {
	t.Helper()
	dir := filepath.Join(tc.work, "proguard")
	os.MkdirAll(dir, 0o755)
	jdkLib := filepath.Join(dir, "jdk-lib.jar")
	gen := exec.Command("go", "run", "./internal/tools/jdklib", "-o", jdkLib)
	gen.Dir = root
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("jdklib: %v\n%s", err, out)
	}
	out, mapping := filepath.Join(dir, "kotlin-obf.jar"), filepath.Join(dir, "mapping.txt")
	config := []string{
		"-injars " + in,
		"-outjars " + out,
		"-libraryjars " + jdkLib,
	}
	for _, l := range libs {
		config = append(config, "-libraryjars "+l)
	}
	config = append(config,
		"-keep class modern.kt.CoroutinesKt { public static void main(java.lang.String[]); }",
		"-keepattributes Signature,InnerClasses,EnclosingMethod,SourceFile,LineNumberTable",
		"-dontoptimize", "-dontnote", "-dontwarn",
		"-printmapping "+mapping)
	pro := filepath.Join(dir, "gate.pro")
	if err := os.WriteFile(pro, []byte(strings.Join(config, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, "java", "-cp", cp(tc.jars("proguard-base-7.10.0.jar", "proguard-core-9.4.0.jar", "log4j-api-2.26.1.jar",
		"log4j-core-2.26.1.jar", "kotlin-stdlib-"+kotlinVersion+".jar", "kotlin-metadata-jvm-2.4.0.jar", "gson-2.11.0.jar",
		"json-20231013.jar")...), "proguard.ProGuard", "@"+pro)
	return out, mapping
}
