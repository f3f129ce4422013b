package engine

import "testing"

// TestMaskRunsHidesClippedPieces: a message that shows a located secret
// only in part (the head and tail a clipped quote keeps) holds no run of
// 8 of its characters after redaction; other text is kept.
func TestMaskRunsHidesClippedPieces(t *testing.T) {
	sec := `"Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5Ca"`
	w := secretWindows([]string{sec, "Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5Ca"})
	cases := map[string]string{
		`api_secret "Zr8Qk2Lw9V…y3Fg0Jm5Ca" is not a string`: `api_secret "****…****" is not a string`,
		`value Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5Ca, then more`:  `value ****, then more`,
		`nothing of it here, only résumé text and Zr8Qk2L`:   `nothing of it here, only résumé text and Zr8Qk2L`,
		`two: Zr8Qk2Lw9Vx4 and 1Hs6Dy3Fg0Jm5Ca.`:             `two: **** and ****.`,
		`short`:                                              `short`,
	}
	for in, want := range cases {
		if got := maskRuns(in, w); got != want {
			t.Errorf("maskRuns(%q) = %q, want %q", in, got, want)
		}
	}
}
