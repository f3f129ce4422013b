package load

import "testing"

func TestScalarEnd(t *testing.T) {
	for _, c := range []struct {
		line   string
		at     int
		inFlow bool
		want   string
		closed bool
	}{
		{`key: value  # note`, 5, false, "value", true},
		{`key: a#b c`, 5, false, "a#b c", true},
		{`- name: x`, 2, false, "name", true},
		{`[a, b]`, 1, true, "a", true},
		{`[a, b]`, 4, true, "b", true},
		{`x: a, b`, 3, false, "a, b", true},
		{`"a\"b" rest`, 0, false, `"a\"b"`, true},
		{`'it''s' rest`, 0, false, `'it''s'`, true},
		{`"open`, 0, false, `"open`, false},
		{"\"open\nnext\"", 0, false, `"open`, false},
		{"plain\nnext", 0, false, "plain", true},
		{`{"a": 1.5, "b": true}`, 6, true, "1.5", true},
	} {
		end, closed := ScalarEnd([]byte(c.line), c.at, c.inFlow)
		if got := c.line[c.at:end]; got != c.want || closed != c.closed {
			t.Errorf("ScalarEnd(%q, %d) = %q, %v; want %q, %v", c.line, c.at, got, closed, c.want, c.closed)
		}
		rend, rclosed := ScalarEnd([]rune(c.line), c.at, c.inFlow)
		if rend != end || rclosed != closed {
			t.Errorf("ScalarEnd over runes(%q) = %d, %v; over bytes %d, %v", c.line, rend, rclosed, end, closed)
		}
	}
}

func TestJSONValueEnd(t *testing.T) {
	d := []byte(`{"a": {"b": [1, "x]"]}, "c": null}`)
	for _, c := range []struct {
		at   int
		want string
	}{
		{0, string(d)},
		{6, `{"b": [1, "x]"]}`},
		{12, `[1, "x]"]`},
		{13, `1`},
		{29, `null`},
	} {
		end, ok := JSONValueEnd(d, c.at)
		if !ok || string(d[c.at:end]) != c.want {
			t.Errorf("JSONValueEnd(%d) = %q, %v; want %q", c.at, d[c.at:end], ok, c.want)
		}
	}
}
