// Package methodmap decides which methods are traced, gives every traced
// method a stable numeric id, reads and writes the Matrix-compatible map
// files (methodMapping.txt, ignoreMethodMapping.txt) and a JSON report of
// ignored methods, and checks maps and instrumented jars for consistency.
//
// Everything here works on plain values that callers fill from bytecode; the
// package does not read class files itself, so it stays independent of the
// class-file model and the instrumenter.
//
// Names: a MethodKey holds the JVM internal form (slashes: "a/b/C$1",
// "(Ljava/lang/String;)V"). The map files use the dotted form ("a.b.C$1",
// "(Ljava.lang.String;)V"); conversion is lossless because internal names
// never contain dots.
package methodmap
