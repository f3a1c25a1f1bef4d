//go:build ignore

// Generates beat.txt: go run generate.go > beat.txt
package main

import "fmt"

func rec(enter bool, id int, ms uint64) uint64 {
	v := uint64(id)<<43 | ms
	if enter {
		v |= 1 << 63
	}
	return v
}

func main() {
	type e struct {
		in   bool
		id   int
		ms   uint64
		note string
	}
	var evs []e
	i := func(id int, ms uint64, note string) { evs = append(evs, e{true, id, ms, note}) }
	o := func(id int, ms uint64) { evs = append(evs, e{false, id, ms, ""}) }
	i(1048574, 0, "looper dispatch")
	i(1, 1, "MainActivity.onCreate")
	i(3, 2, "setupViews")
	i(6, 3, "FeedAdapter.<init>")
	o(6, 10)
	for k := uint64(0); k < 3; k++ {
		t := 10 + 10*k
		i(7, t, "FeedView.bind")
		i(8, t+1, "ImageLoader.decode")
		o(8, t+8)
		o(7, t+10)
	}
	o(3, 40)
	i(4, 40, "loadConfig")
	i(9, 41, "ConfigStore.read")
	i(10, 45, "JsonParser.parse (slow)")
	o(10, 98)
	o(9, 100)
	i(11, 100, "ConfigStore.validate")
	o(11, 108)
	o(4, 110)
	i(5, 110, "initAnalytics")
	i(12, 111, "Tracker.connect: throws, its o() is skipped")
	o(5, 119)
	o(1, 120)
	i(2, 121, "MainActivity.onResume")
	i(13, 122, "Prefetch.start")
	for k := uint64(0); k < 4; k++ {
		i(14, 124+12*k, "Prefetch.enqueue")
		o(14, 134+12*k)
	}
	o(13, 170)
	o(2, 178)
	o(1048574, 180)
	fmt.Println("# A sample AppMethodBeat buffer, one record per line in hex:")
	fmt.Println("# bit 63 = enter, bits 43..62 = method id (see methodMapping.txt), bits 0..42 = ms.")
	fmt.Println("# Tracker.connect throws: its exit record is missing.")
	for _, ev := range evs {
		if ev.note != "" {
			fmt.Printf("# %d ms: enter %s\n", ev.ms, ev.note)
		}
		fmt.Printf("0x%016x\n", rec(ev.in, ev.id, ev.ms))
	}
}
