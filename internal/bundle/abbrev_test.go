package bundle

import "testing"

func TestAbbrevPair(t *testing.T) {
	a := "a12b7cb43c9d9134b5bb1b35e9196b66775d9e92e7611d1cc92b02edd6782a87"
	b := "a12b7cb43c9d9134b5bb1b35e9096b66775d9e92e7611d1cc92b02edd6782a87"
	x, y := abbrevPair(a, b)
	if x != "a12b7cb4…e9196b6677…" || y != "a12b7cb4…e9096b6677…" {
		t.Errorf("late difference: %s, %s", x, y)
	}
	c := "0" + a[1:]
	if x, y = abbrevPair(a, c); x != a[:12]+"…" || y != c[:12]+"…" {
		t.Errorf("early difference: %s, %s", x, y)
	}
	d := a[:63] + "0"
	if x, y = abbrevPair(a, d); x != "a12b7cb4…a87" || y != "a12b7cb4…a80" {
		t.Errorf("last digit: %s, %s", x, y)
	}
}
