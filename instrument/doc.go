// Package instrument is the jar pipeline: inputs (jars and class
// directories) are read, scanned, planned and written, each class passing
// through package rewrite.
//
//   - inputs.go reads jars and directories; scan.go and scanjar.go read
//     every class once for the method rules, the Activity hierarchy and
//     code already instrumented;
//   - pipeline.go plans: methodmap's rules decide what is traced, ids come
//     from the base map and the method map (planIDsInOrder); output.go
//     writes each entry (a class through rewrite.RewriteClass, everything
//     else copied as its compressed bytes) and publishes all outputs at
//     once (internal/outset);
//   - with Options.Cache, cache*.go, snapshot.go and delta.go keep scans,
//     rewritten bodies, whole output jars and the last map by content
//     hash, so an edit re-instruments only what changed.
//
// It writes no bytecode itself, and knows no command line.
package instrument
