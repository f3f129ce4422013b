package secret

import "testing"

func TestMask(t *testing.T) {
	for in, want := range map[string][2]string{
		"key ghp_R8x2LmQ4vN7kT1pZ9yW3cB6dF0hJ5sA2eG4i.":                            {"key ****.", "key ****************************************."},
		"a -----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY----- b": {"a **** b", "a " + stars(31+1+4+1+29) + " b"},
		"ghp_<your token here>": {"ghp_<your token here>", "ghp_<your token here>"},
		"no credential, résumé": {"no credential, résumé", "no credential, résumé"},
	} {
		if got := Mask(in); got != want[0] {
			t.Errorf("Mask(%q) = %q, want %q", in, got, want[0])
		}
		if got := MaskInPlace(in); got != want[1] {
			t.Errorf("MaskInPlace(%q) = %q, want %q", in, got, want[1])
		}
	}
}

func stars(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '*'
	}
	return string(b)
}
