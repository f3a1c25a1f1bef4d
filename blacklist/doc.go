// Package blacklist reads block lists in the format of Tencent Matrix's
// trace plugin (blackListFile) and decides which classes must not be traced.
//
// A block list file has one rule per line:
//
//	[package]
//	-keepclass com/example/Foo
//	-keeppackage com/squareup/
//
// Lines starting with '#' or '[' and empty lines are skipped. Names may be
// written with slashes or dots. A line Matrix would skip (an unknown
// directive, a malformed name) is skipped and kept in List.Skipped, or,
// with List.Strict, refused. -keepclass blocks the class and its nested
// classes (Foo$Bar); -keeppackage blocks the package and its subpackages.
// Unlike Matrix, which compares string prefixes, names match whole: a rule
// for a/b/C does not block a/b/CD, and a rule for package a/b does not
// block a/bc/D.
//
// Rules name classes in their ORIGINAL (source) form. For an obfuscated
// build the caller de-obfuscates a class name (package mapping) before
// asking; this package does not know about mappings.
//
// Some rules are always on (see New): the android package, the tracing
// runtime's package and class, Matrix's own com/tencent/matrix package, and
// the classes the Android build generates into a resource namespace (R,
// R$*, BuildConfig, Manifest, Manifest$* next to an Android R class; see
// List.Generated). Matrix skips every class whose path merely contains
// R$, Manifest or BuildConfig, which also skips scala.reflect.Manifest.
package blacklist
