package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
)

// The operators, each a kind in the per-operator scores:
//
//	boundary, negation   < <= > >= == != moved by one or turned round
//	arithmetic           + - * / % swapped
//	increment            ++ for -- and back
//	negative             a unary minus dropped
//	logical              && for || and back
//	not                  a ! dropped
//	bitwise              & | ^ &^ << >> swapped
//	shift                a shift by a constant shifts one more or less
//	assign               += -= *= /= %= &= |= ^= <<= >>= &^= swapped
//	constant             an integer constant one more or less
//	statement            a call whose result is unused deleted, an if's
//	                     body emptied, an error returned replaced by nil
//
// Constants of const declarations are left alone: a change there is a new
// constant, not a bug the tests meet.
var flips = map[token.Token][]struct {
	to   string
	kind string
}{
	token.LSS:     {{"<=", "boundary"}, {">=", "negation"}},
	token.LEQ:     {{"<", "boundary"}, {">", "negation"}},
	token.GTR:     {{">=", "boundary"}, {"<=", "negation"}},
	token.GEQ:     {{">", "boundary"}, {"<", "negation"}},
	token.EQL:     {{"!=", "negation"}},
	token.NEQ:     {{"==", "negation"}},
	token.ADD:     {{"-", "arithmetic"}},
	token.SUB:     {{"+", "arithmetic"}},
	token.MUL:     {{"/", "arithmetic"}},
	token.QUO:     {{"*", "arithmetic"}},
	token.REM:     {{"*", "arithmetic"}},
	token.INC:     {{"--", "increment"}},
	token.DEC:     {{"++", "increment"}},
	token.LAND:    {{"||", "logical"}},
	token.LOR:     {{"&&", "logical"}},
	token.AND:     {{"|", "bitwise"}},
	token.OR:      {{"&", "bitwise"}},
	token.XOR:     {{"&", "bitwise"}},
	token.AND_NOT: {{"&", "bitwise"}},
	token.SHL:     {{">>", "bitwise"}},
	token.SHR:     {{"<<", "bitwise"}},

	token.ADD_ASSIGN:     {{"-=", "assign"}},
	token.SUB_ASSIGN:     {{"+=", "assign"}},
	token.MUL_ASSIGN:     {{"/=", "assign"}},
	token.QUO_ASSIGN:     {{"*=", "assign"}},
	token.REM_ASSIGN:     {{"*=", "assign"}},
	token.AND_ASSIGN:     {{"|=", "assign"}},
	token.OR_ASSIGN:      {{"&=", "assign"}},
	token.XOR_ASSIGN:     {{"&=", "assign"}},
	token.SHL_ASSIGN:     {{">>=", "assign"}},
	token.SHR_ASSIGN:     {{"<<=", "assign"}},
	token.AND_NOT_ASSIGN: {{"&=", "assign"}},
}

// kinds are the operators in the order the scores are printed.
var kinds = []string{"boundary", "negation", "arithmetic", "increment", "negative", "logical", "not", "bitwise", "shift", "assign", "constant", "statement"}

// findMutants lists the changes tried in one file, in source order.
func findMutants(path string) ([]*mutant, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []*mutant
	// at adds a change of src[pos, end) to repl.
	at := func(pos, end token.Pos, repl, from, to, kind string) {
		p, e := fset.Position(pos), fset.Position(end)
		out = append(out, &mutant{file: path, line: p.Line, col: p.Column, off: p.Offset, end: e.Offset, repl: repl, from: from, to: to, kind: kind})
	}
	op := func(pos token.Pos, tok token.Token) {
		for _, fl := range flips[tok] {
			at(pos, pos+token.Pos(len(tok.String())), fl.to, tok.String(), fl.to, fl.kind)
		}
	}
	plusMinusOne := func(lit *ast.BasicLit, kind string) {
		v, err := strconv.ParseInt(lit.Value, 0, 64)
		if err != nil {
			return // a float, or beyond int64
		}
		for _, w := range []int64{v + 1, v - 1} {
			if w < 0 {
				continue // -1 in place of 0: mostly not viable where it counts
			}
			s := strconv.FormatInt(w, 10)
			at(lit.Pos(), lit.End(), s, lit.Value, s, kind)
		}
	}
	shiftAmounts := map[*ast.BasicLit]bool{}
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if g, ok := n.(*ast.GenDecl); ok && (g.Tok == token.CONST || g.Tok == token.IMPORT) {
			return false
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if isStringConcat(n) {
				return true
			}
			op(n.OpPos, n.Op)
			if lit, ok := n.Y.(*ast.BasicLit); ok && lit.Kind == token.INT && (n.Op == token.SHL || n.Op == token.SHR) {
				shiftAmounts[lit] = true
				plusMinusOne(lit, "shift")
			}
		case *ast.AssignStmt:
			op(n.TokPos, n.Tok)
		case *ast.IncDecStmt:
			op(n.TokPos, n.Tok)
		case *ast.UnaryExpr:
			switch n.Op {
			case token.SUB:
				at(n.OpPos, n.OpPos+1, "", "-", "", "negative")
			case token.NOT:
				at(n.OpPos, n.OpPos+1, "", "!", "", "not")
			}
		case *ast.BasicLit:
			if n.Kind == token.INT && !shiftAmounts[n] && !inArrayLength(stack) {
				plusMinusOne(n, "constant")
			}
		case *ast.ExprStmt:
			if _, ok := n.X.(*ast.CallExpr); ok {
				at(n.Pos(), n.End(), "", "call", "none", "statement")
			}
		case *ast.IfStmt:
			if len(n.Body.List) > 0 {
				at(n.Body.Lbrace, n.Body.Rbrace+1, "{}", "if-body", "{}", "statement")
			}
		case *ast.ReturnStmt:
			if len(n.Results) > 0 && returnsError(stack) {
				last := n.Results[len(n.Results)-1]
				if id, ok := last.(*ast.Ident); !ok || id.Name != "nil" {
					at(last.Pos(), last.End(), "nil", "return-err", "nil", "statement")
				}
			}
		}
		return true
	})
	return out, nil
}

// inArrayLength reports a literal that is an array type's length: one
// more or less is another type, not a bug.
func inArrayLength(stack []ast.Node) bool {
	if len(stack) < 2 {
		return false
	}
	a, ok := stack[len(stack)-2].(*ast.ArrayType)
	return ok && a.Len == stack[len(stack)-1]
}

// returnsError reports whether the innermost function on the stack has
// error as its last result.
func returnsError(stack []ast.Node) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		var ft *ast.FuncType
		switch fn := stack[i].(type) {
		case *ast.FuncDecl:
			ft = fn.Type
		case *ast.FuncLit:
			ft = fn.Type
		default:
			continue
		}
		if ft.Results == nil || len(ft.Results.List) == 0 {
			return false
		}
		id, ok := ft.Results.List[len(ft.Results.List)-1].Type.(*ast.Ident)
		return ok && id.Name == "error"
	}
	return false
}

// isStringConcat reports a + whose operands are string literals (its
// flip does not compile; other non-numeric operands are found when a
// mutant does not build).
func isStringConcat(b *ast.BinaryExpr) bool {
	lit := func(e ast.Expr) bool {
		l, ok := e.(*ast.BasicLit)
		return ok && l.Kind == token.STRING
	}
	return b.Op == token.ADD && (lit(b.X) || lit(b.Y))
}
