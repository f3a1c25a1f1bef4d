package decode

import (
	"fmt"
	"strings"
	"testing"
)

// frameString renders a frame compactly: "id[start-end]@depth#seq flags".
func frameString(f Frame) string {
	s := fmt.Sprintf("%d[%d-%d]@%d#%d", f.MethodID, f.Start, f.End, f.Depth, f.Seq)
	if f.Unclosed {
		s += " unclosed"
	}
	if f.NoEnter {
		s += " noenter"
	}
	return s
}

func pairAll(t *testing.T, recs []Record) ([]Frame, PairStats, error) {
	t.Helper()
	var frames []Frame
	p := NewPairer(func(f Frame) error { frames = append(frames, f); return nil }, nil)
	for _, r := range recs {
		if err := p.Add(r); err != nil {
			return frames, p.Stats(), err
		}
	}
	err := p.Finish()
	return frames, p.Stats(), err
}

func TestPairer(t *testing.T) {
	tests := []struct {
		name  string
		recs  []Record
		want  []string // frames in emission order
		check func(t *testing.T, st PairStats)
	}{
		{
			name: "nested calls close callees first",
			recs: []Record{I(1, 0), I(2, 1), O(2, 3), I(3, 4), O(3, 4), O(1, 5)},
			want: []string{"2[1-3]@1#1", "3[4-4]@1#2", "1[0-5]@0#0"},
		},
		{
			name: "exception skipped exits: callees close unclosed at the caller's exit",
			recs: []Record{I(1, 0), I(2, 1), I(3, 2), O(1, 6)},
			want: []string{"3[2-6]@2#2 unclosed", "2[1-6]@1#1 unclosed", "1[0-6]@0#0"},
			check: func(t *testing.T, st PairStats) {
				if st.Unclosed != 2 {
					t.Errorf("Unclosed = %d", st.Unclosed)
				}
			},
		},
		{
			name: "ring-buffer wrap: exits without enters enclose what came before",
			recs: []Record{I(9, 1), O(9, 2), O(5, 3), I(7, 4), O(7, 5), O(3, 8)},
			want: []string{"9[1-2]@0#0", "5[1-3]@0#-1 noenter", "7[4-5]@0#1", "3[1-8]@0#-2 noenter"},
			check: func(t *testing.T, st PairStats) {
				if st.NoEnter != 2 || st.First != 1 {
					t.Errorf("NoEnter = %d First = %d", st.NoEnter, st.First)
				}
			},
		},
		{
			name: "calls open at the end close at the last timestamp",
			recs: []Record{I(1, 0), I(2, 1), O(2, 2), I(3, 4)},
			want: []string{"2[1-2]@1#1", "3[4-4]@1#2 unclosed", "1[0-4]@0#0 unclosed"},
		},
		{
			name: "exit matching nothing open is ignored",
			recs: []Record{I(1, 0), O(9, 1), O(1, 2)},
			want: []string{"1[0-2]@0#0"},
			check: func(t *testing.T, st PairStats) {
				if st.StrayExits != 1 || st.FirstStray != "record 2" {
					t.Errorf("StrayExits = %d at %q", st.StrayExits, st.FirstStray)
				}
			},
		},
		{
			name: "recursion pairs with the innermost call",
			recs: []Record{I(4, 0), I(4, 1), O(4, 2), O(4, 3)},
			want: []string{"4[1-2]@1#1", "4[0-3]@0#0"},
		},
		{
			name: "empty slots are skipped",
			recs: []Record{0, I(1, 0), 0, O(1, 2), 0},
			want: []string{"1[0-2]@0#0"},
			check: func(t *testing.T, st PairStats) {
				if st.EmptySlots != 3 || st.Records != 5 {
					t.Errorf("EmptySlots = %d Records = %d", st.EmptySlots, st.Records)
				}
			},
		},
		{
			name: "clock going backwards is counted, cost clamps at zero",
			recs: []Record{I(1, 10), O(1, 7)},
			want: []string{"1[10-7]@0#0"},
			check: func(t *testing.T, st PairStats) {
				if st.TimeBackwards != 1 || st.FirstBackward != "record 2" || st.Last != 10 {
					t.Errorf("TimeBackwards = %d at %q, Last %d", st.TimeBackwards, st.FirstBackward, st.Last)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			frames, st, err := pairAll(t, tc.recs)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range frames {
				got = append(got, frameString(f))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("frames:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if tc.check != nil {
				tc.check(t, st)
			}
			for _, f := range frames {
				if f.End < f.Start && f.Cost() != 0 {
					t.Errorf("%s: cost %d", frameString(f), f.Cost())
				}
			}
		})
	}
}

func TestAbsoluteDepth(t *testing.T) {
	// o(5) then i(7) i(8) o(8) o(7) then o(3): 3 encloses 5 and 7; 8 is in 7.
	frames, _, err := pairAll(t, []Record{O(5, 0), I(7, 1), I(8, 2), O(8, 3), O(7, 4), O(3, 5)})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]int{3: 0, 5: 1, 7: 1, 8: 2}
	for _, f := range frames {
		if got := f.AbsoluteDepth(2); got != want[f.MethodID] {
			t.Errorf("%s: AbsoluteDepth = %d, want %d", frameString(f), got, want[f.MethodID])
		}
	}
}

func TestPairerDepthLimit(t *testing.T) {
	p := NewPairer(func(Frame) error { return nil }, func() string { return "line 12" })
	p.SetMaxDepth(3)
	var err error
	for i := 0; i < 4 && err == nil; i++ {
		err = p.Add(I(1, uint64(i)))
	}
	if err == nil || !strings.Contains(err.Error(), "line 12: call depth exceeds 3") {
		t.Fatalf("error = %v", err)
	}
}
