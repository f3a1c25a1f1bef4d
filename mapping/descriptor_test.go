package mapping

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRemapDescriptor(t *testing.T) {
	classes := map[string]string{
		"com/example/Foo":  "a",
		"com/example/LBar": "b/c",
		"Lone":             "d",
	}
	mapClass := func(name string) string {
		if v, ok := classes[name]; ok {
			return v
		}
		return name
	}
	tests := []struct{ in, want string }{
		{"()V", "()V"},
		{"(IJ[D)Z", "(IJ[D)Z"},
		{"(Lcom/example/Foo;)V", "(La;)V"},
		{"(Ljava/lang/String;[[Lcom/example/Foo;I)Lcom/example/Foo;", "(Ljava/lang/String;[[La;I)La;"},
		// 'L' inside a class name is not a type tag.
		{"(Lcom/example/LBar;Lcom/example/Foo;)V", "(Lb/c;La;)V"},
		{"(LLone;)LLone;", "(Ld;)Ld;"},
		{"Lcom/example/Foo;", "La;"},
		{"[Lcom/example/Foo;", "[La;"},
		{"", ""},
		// Broken descriptors are copied from where they stop making sense.
		{"(Lcom/example/Foo", "(Lcom/example/Foo"},
		{"(Lcom/example/Foo;Lcom/example/Foo", "(La;Lcom/example/Foo"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, RemapDescriptor(tt.in, mapClass))
		})
	}
	// Identity mapping returns the same string without copying.
	desc := "(Ljava/lang/Object;)V"
	assert.Equal(t, desc, RemapDescriptor(desc, func(s string) string { return s }))
}

func TestJavaTypeDescriptors(t *testing.T) {
	tests := []struct {
		params, ret string
		want        string
		ok          bool
	}{
		{"", "void", "()V", true},
		{"int", "boolean", "(I)Z", true},
		{"byte,char,short,long,float,double", "int[]", "(BCSJFD)[I", true},
		{"java.lang.String[][],com.example.Foo$Bar", "java.lang.Object", "([[Ljava/lang/String;Lcom/example/Foo$Bar;)Ljava/lang/Object;", true},
		{" int , long ", "void", "(IJ)V", true},
		{"NoPackage", "a", "(LNoPackage;)La;", true},
		{"int,", "void", "", false},
		{",int", "void", "", false},
		{"void", "void", "", false},
		{"int", "", "", false},
		{"int", "[]", "", false},
		{"java..String", "void", "", false},
		{"java.lang.String.", "void", "", false},
		{"java/lang/String", "void", "", false},
		{"int", "List<String>", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.params+"->"+tt.ret, func(t *testing.T) {
			got, ok := appendMethodDescriptor(nil, tt.params, tt.ret)
			assert.Equal(t, tt.ok, ok)
			if tt.ok {
				assert.Equal(t, tt.want, string(got))
				assert.True(t, validMethodDescriptor(string(got)))
			}
		})
	}
}

func TestValidMethodDescriptor(t *testing.T) {
	tests := []struct {
		desc string
		ok   bool
	}{
		{"()V", true},
		{"(I)V", true},
		{"([[Ljava/lang/String;J)[La;", true},
		{"(Lfoo/StringConsumer;)Lfoo/internal/MapConsumer;", true},
		{"", false},
		{"V", false},
		{"I", false}, // a field's residual type
		{"()", false},
		{"(V)V", false},
		{"(L;)V", false},
		{"(Ljava/lang/String)V", false},
		{"()VV", false},
		{"()[V", false},
		{"(I", false},
		{"([)V", false},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			assert.Equal(t, tt.ok, validMethodDescriptor(tt.desc))
		})
	}
}

func TestParseLenientObject(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want map[string]any
		err  string
	}{
		{"strict", `{"id":"sourceFile","fileName":"Foo.kt"}`, map[string]any{"id": "sourceFile", "fileName": "Foo.kt"}, ""},
		{"single quotes", `{'id':'com.android.tools.r8.mapping','version':'2.2'}`, map[string]any{"id": "com.android.tools.r8.mapping", "version": "2.2"}, ""},
		{"unquoted keys and spaces", `{ id : 'x' , n : 12.5 }`, map[string]any{"id": "x", "n": 12.5}, ""},
		{"trailing commas", `{"a":[1,2,],"b":{"c":null,},}`, map[string]any{"a": []any{1.0, 2.0}, "b": map[string]any{"c": nil}}, ""},
		{"literals and bare values", `{t:true,f:false,v:bare}`, map[string]any{"t": true, "f": false, "v": "bare"}, ""},
		{"escapes", `{"s":"a\"b\\c\u00e9\n",'q':'it\'s'}`, map[string]any{"s": "a\"b\\c\u00e9\n", "q": "it's"}, ""},
		{"utf-8 kept", `{"s":"Ünïcode"}`, map[string]any{"s": "Ünïcode"}, ""},
		{"empty", `{}`, map[string]any{}, ""},
		{"unterminated string", `{"id":"x}`, nil, "unterminated string"},
		{"missing colon", `{"id" "x"}`, nil, "expected ':'"},
		{"missing close", `{"id":"x"`, nil, "expected ',' or '}'"},
		{"text after object", `{"id":"x"} extra`, nil, "after the metadata object"},
		{"not an object", `["id"]`, nil, "does not start with '{'"},
		{"bad escape", `{"id":"\x"}`, nil, "unknown escape"},
		{"empty value", `{"id":}`, nil, "unexpected"},
		{"too deep", "{a:" + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "}", nil, "nested deeper"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseLenientObject(tt.in)
			if tt.err != "" {
				assert.ErrorContains(t, err, tt.err)
				return
			}
			assert.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
