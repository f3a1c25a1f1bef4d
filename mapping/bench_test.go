package mapping

import (
	"bytes"
	"fmt"
	"testing"
)

// syntheticMapping writes an R8-style mapping with the given number of
// classes: metadata, fields, overloads, multi-range methods and inline
// frames, about 1 KB per class.
func syntheticMapping(classes int) []byte {
	var b bytes.Buffer
	b.WriteString("# compiler: R8\n# {\"id\":\"com.android.tools.r8.mapping\",\"version\":\"2.2\"}\n")
	for c := 0; c < classes; c++ {
		fmt.Fprintf(&b, "com.example.pkg%d.Class%d -> a%d.b%d:\n", c%97, c, c%13, c)
		fmt.Fprintf(&b, "# {\"id\":\"sourceFile\",\"fileName\":\"Class%d.kt\"}\n", c)
		fmt.Fprintf(&b, "    java.lang.String name -> a\n    int count -> b\n")
		fmt.Fprintf(&b, "    1:4:void <init>(java.lang.String,int):10:13 -> <init>\n")
		for m := 0; m < 4; m++ {
			fmt.Fprintf(&b, "    %d:%d:com.example.pkg%d.Class%d run%d(com.example.pkg%d.Class%d[],long):%d:%d -> %c\n",
				10*m+5, 10*m+8, (c+1)%97, c+1, m, c%97, c, 20+m, 23+m, 'a'+m%2)
			fmt.Fprintf(&b, "    %d:%d:int com.example.Util.helper(int):100:100 -> %c\n", 10*m+9, 10*m+9, 'a'+m%2)
			fmt.Fprintf(&b, "    %d:%d:com.example.pkg%d.Class%d run%d(com.example.pkg%d.Class%d[],long):%d -> %c\n",
				10*m+9, 10*m+9, (c+1)%97, c+1, m, c%97, c, 24+m, 'a'+m%2)
		}
		fmt.Fprintf(&b, "    java.lang.String toString() -> toString\n")
	}
	return b.Bytes()
}

func BenchmarkParse(b *testing.B) {
	data := syntheticMapping(50000) // about 50 MB
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Parse(bytes.NewReader(data), "synthetic.txt", nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOriginalMethod(b *testing.B) {
	m, err := Parse(bytes.NewReader(syntheticMapping(2000)), "synthetic.txt", nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, ok := m.OriginalMethod("a12/b1000", "a", "([La12/b1000;J)La0/b1001;"); !ok {
			b.Fatal("not found")
		}
	}
}
