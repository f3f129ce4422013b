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
	// starts has bit b set when a keyword starts with the bigram b: the
	// scan tests every byte pair of a file here, and 8 KiB stay in the
	// first-level cache where the 64 KiB of bigram did not.
	starts [1 << 16 / 64]uint64
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
					b := uint16(k[0])<<8 | uint16(k[1])
					ix.starts[b>>6] |= 1 << (b & 63)
					g := &ix.bigram[b]
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

func lower(c byte) byte { return lowerTable[c] }

// lowerTable maps ASCII upper-case letters to lower case, other bytes to
// themselves: a look-up, not a branch the scan mispredicts in mixed text.
var lowerTable = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] = byte(i) + 'a' - 'A'
		}
	}
	return t
}()

// Candidates returns the patterns one of whose keywords s holds, case
// aside: only those can match s.
func Candidates(s string) Set { return candidates(s) }

func candidates[T string | []byte](s T) Set {
	var set Set
	eachKeyword(s, func(_ int, pats *Set) { set.or(pats) })
	return set
}

// eachKeyword calls hit with the start of every keyword s holds, case
// aside, and the patterns that keyword belongs to, in text order.
func eachKeyword[T string | []byte](s T, hit func(at int, pats *Set)) {
	if len(s) < 2 {
		return
	}
	ix := theIndex()
	prev := uint16(lower(s[0]))
	for i := 1; i < len(s); i++ {
		c := uint16(lower(s[i]))
		b := prev<<8 | c
		prev = c
		if ix.starts[b>>6]&(1<<(b&63)) == 0 {
			continue
		}
		g := ix.bigram[b]
		for k := range ix.groups[g-1] {
			kw := &ix.groups[g-1][k]
			if hasPrefixFold(s[i-1:], kw.text) {
				hit(i-1, &kw.pats)
			}
		}
	}
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

// LineCandidates screens data in one pass and calls fn, in line order,
// for each line holding a keyword, with the patterns whose keywords it
// holds; lineStarts are the byte offsets at which data's lines start
// (load.File.LineStarts). A file screened whole and then line by line
// was read twice, and most files of a lint hold some keyword somewhere.
func LineCandidates(data []byte, lineStarts []int, fn func(line int, set Set)) {
	if len(lineStarts) == 0 {
		return
	}
	line, next := 0, len(data)+1 // the line of the last hit, where the next starts
	if len(lineStarts) > 1 {
		next = lineStarts[1]
	}
	var set Set
	eachKeyword(data, func(at int, pats *Set) {
		if at >= next {
			if !set.Empty() {
				fn(line, set)
				set = Set{}
			}
			for line+1 < len(lineStarts) && lineStarts[line+1] <= at {
				line++
			}
			next = len(data) + 1
			if line+1 < len(lineStarts) {
				next = lineStarts[line+1]
			}
		}
		set.or(pats)
	})
	if !set.Empty() {
		fn(line, set)
	}
}
