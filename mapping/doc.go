// Package mapping reads ProGuard and R8 mapping files (mapping.txt) and
// answers name look-ups in both directions: obfuscated to original and
// original to obfuscated, for classes, packages and methods.
//
// Names in the API use the JVM's internal form (com/example/Foo, with
// slashes and '$' for nested classes) because that is what class files
// contain; the mapping file's dotted names are converted while parsing.
// Method descriptors are JVM descriptors in internal form, e.g.
// (Ljava/lang/String;[I)V.
//
// Anything the mapping does not mention maps to itself: a class that is not
// in the file was not renamed, and a method of a mapped class that is not
// listed keeps its name (its descriptor's class names are still remapped).
// Every look-up returns an ok bool that says whether the mapping had an entry.
//
// Inline frames: R8 and an optimizing ProGuard write a method whose code
// contains inlined calls as a group of consecutive lines sharing one
// obfuscated line range and obfuscated name, innermost frame first; the
// outer frames give the single line of their call site ("...():15 -> b").
// A line joins the group above it only in that form, so two different
// methods that happen to share a range and name (each with a line range
// of its own) stay apart. Only the group's last (outermost) line describes
// a method that exists in the obfuscated class; the inner lines describe
// callees whose code was copied in. A line whose name is qualified with
// another class (com.example.Bar.inlined) is not a method of the enclosing
// class either: it was inlined or moved from that class.
//
// R8's residual signature metadata (a method whose parameters R8 changed)
// replaces the obfuscated descriptor that would otherwise be derived from
// the original one.
package mapping
