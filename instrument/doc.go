// Package instrument is the run: inputs (jars and class directories) are
// looked up, scanned, planned, written and finished, each class passing
// through package rewrite, and with a cache, what can be is taken from
// the last runs instead of being done again.
//
// It stands on four rooms of its own, each a package below it:
//
//   - jario: the jar layer. An input and its entries, their sums, pooled
//     buffers, memory maps, the jar writer (byte for byte archive/zip's),
//     the sinks that stage outputs, and the spans of a merged jar.
//   - scan: what the scan of a class keeps (scan.Class, scan.Method), the
//     run's scans (scan.Set: the walks that assign ids and plan the
//     classes), the Policy that decides, and the traced and ignored lists.
//   - pack: the records a cache pack keeps of each class and their
//     encoding, which the run snapshot's encoding shares.
//   - store: the cache directory's layout.
//
// Every run takes one path (run.go: Run and its stages):
//
//   - look up: scaninputs.go lists the inputs; with Options.Cache, the
//     run's runCache (runcache.go) holds what the cache knows: lastrun.go
//     asks whether the last run of the same command still holds but for
//     some changed classes (a delta run), else cache_run.go finds the pack
//     of each input; inputsum.go checks and sums the inputs' bytes;
//   - scan: scaninputs.go reads every class once, or takes a record's scan
//     for an unchanged class (cache_reuse.go), or in a delta run the
//     changed classes' scans (deltarun.go);
//   - plan: plan.go gives ids (scan.Set.AssignIDs) and the focus set of
//     the Activities that get the focus call;
//   - write: write.go streams each input's entries (entryout.go's
//     classRewriter: a class through rewrite.RewriteClass, or its recorded
//     body; everything else copied as its compressed bytes) into jario's
//     sinks, and publishes all outputs at once (internal/outset); in a
//     delta run a merged jar's unchanged inputs are spliced from the last
//     output (outspan.go);
//   - finish: finish.go makes the maps' texts, or patch.go patches the
//     last run's in a delta run; result.go answers for them in one shape,
//     report.go for the report; warnings.go collects what the stages
//     warned;
//   - store: cache_run.go and snapshot.go keep the packs (scans,
//     rewritten bodies, output jars) and the run's snapshot.
//
// It writes no bytecode itself, knows no command line, and builds no path
// into the cache directory (package store owns it).
package instrument
