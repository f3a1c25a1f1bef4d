// Package instrument is the jar pipeline: inputs (jars and class
// directories) are read, scanned, planned and written, each class passing
// through package rewrite, and with a cache, what can be is taken from
// package store instead of being done again.
//
// Every run takes one path (run.go: Run and its stages):
//
//   - look up: inputs.go lists jars and directories; with Options.Cache,
//     the run's runCache (runcache.go) holds what the cache knows:
//     lastrun.go asks whether the last run of the same command still
//     holds but for some changed classes (a delta run; jars and, into a
//     merged output, class directories), else cache_run.go finds the pack
//     of each input;
//   - scan: scaninputs.go reads every class once (scan.go, scanjar.go:
//     the method rules, the Activity hierarchy, code instrumented before),
//     or takes a record's scan for an unchanged class (cache_reuse.go), or
//     in a delta run the changed classes' scans (deltarun.go); the scans
//     are scanSet's (scanset.go: the walks over every method), their names
//     and descriptors in the run's TextTable (texttable.go);
//   - plan: plan.go gives ids (scanSet.AssignIDs: methodmap's rules decide
//     what is traced, the base map and the kept map keep ids from build to
//     build) and finds the duplicated classes and the Activities that get
//     the focus call (scanSet.PlanClasses);
//   - write: write.go streams each input's entries (entryout.go: a class
//     through rewrite.RewriteClass, or its recorded body; everything else
//     copied as its compressed bytes) into sink.go's jars (jarwriter.go,
//     byte for byte archive/zip's) and directories, and publishes all
//     outputs at once (internal/outset); in a delta run a merged jar's
//     unchanged inputs are copied from the last output (outspan.go);
//   - finish: finish.go makes the method lists (tracedlist.go and
//     ignoredlist.go: the maps as the scans hold them) and the maps' texts,
//     or patch.go patches the last run's in a delta run; result.go answers
//     for them in one shape, and report.go for the report (the kept one
//     when it is the same); warnings.go collects what the stages warned;
//   - store: cache_run.go, cache_index.go and snapshot.go (in the
//     encoding of indexcodec.go) keep the packs (scans, rewritten bodies,
//     output jars) and the run's snapshot.
//
// It writes no bytecode itself, knows no command line, and builds no path
// into the cache directory (package store owns it).
package instrument
