package traceout

// LODBlockBytes lets a test make the blocks of levels small.
var LODBlockBytes = &lodBlockBytes
