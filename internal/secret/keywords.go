package secret

import "sync"

// Set is a set of indexes into Patterns.
type Set [4]uint64

// Has reports whether i is in the set.
func (s Set) Has(i int) bool { return s[i>>6]&(1<<(i&63)) != 0 }

// Empty reports whether the set holds nothing.
func (s Set) Empty() bool { return s == Set{} }

func (s *Set) add(i int) { s[i>>6] |= 1 << (i & 63) }

func (s *Set) or(o *Set) {
	for i := range s {
		s[i] |= o[i]
	}
}

type keyword struct {
	text string // lower case
	pats Set
}

// keywordIndex finds every pattern keyword in one pass over a text: a
// table indexed by the two lower-case bytes a keyword starts with says
// which keywords to compare there. Built on first use (SPEC §9 P4).
type keywordIndex struct {
	bigram [1 << 16]uint8 // 1 + the index in groups; 0: no keyword starts so
	groups [][]keyword
}

var (
	indexOnce sync.Once
	index     *keywordIndex
)

func theIndex() *keywordIndex {
	indexOnce.Do(func() {
		if len(Patterns) > len(Set{})*64 {
			panic("secret: more patterns than a Set holds")
		}
		ix := &keywordIndex{}
		at := map[string]int{}
		for i, p := range Patterns {
			for _, k := range p.Keywords {
				if len(k) < 2 {
					panic("secret: keyword " + k + " is shorter than two bytes")
				}
				j, ok := at[k]
				if !ok {
					g := &ix.bigram[uint16(k[0])<<8|uint16(k[1])]
					if *g == 0 {
						ix.groups = append(ix.groups, nil)
						*g = uint8(len(ix.groups))
					}
					ix.groups[*g-1] = append(ix.groups[*g-1], keyword{text: k})
					j = int(*g-1)<<8 | (len(ix.groups[*g-1]) - 1)
					at[k] = j
				}
				ix.groups[j>>8][j&0xff].pats.add(i)
			}
		}
		if len(ix.groups) > 255 {
			panic("secret: more keyword groups than the table holds")
		}
		index = ix
	})
	return index
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// Candidates returns the patterns one of whose keywords s holds, case
// aside: only those can match s.
func Candidates(s string) Set { return candidates(s) }

// CandidatesBytes is Candidates of b, without copying it to a string.
func CandidatesBytes(b []byte) Set { return candidates(b) }

func candidates[T string | []byte](s T) Set {
	ix := theIndex()
	var set Set
	for i := 0; i+1 < len(s); i++ {
		g := ix.bigram[uint16(lower(s[i]))<<8|uint16(lower(s[i+1]))]
		if g == 0 {
			continue
		}
		for k := range ix.groups[g-1] {
			kw := &ix.groups[g-1][k]
			if hasPrefixFold(s[i:], kw.text) {
				set.or(&kw.pats)
			}
		}
	}
	return set
}

// hasPrefixFold reports whether s starts with the lower-case k, case aside.
func hasPrefixFold[T string | []byte](s T, k string) bool {
	if len(s) < len(k) {
		return false
	}
	for j := 2; j < len(k); j++ {
		if lower(s[j]) != k[j] {
			return false
		}
	}
	return true
}
