package rules

import (
	"fmt"
	"hash/maphash"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// Two kinds of derived data flow between rules, each behind a typed handle:
//
//   - a Result is computed at most once per unit, on first use, from the
//     unit alone (the resumption section, the file's path resolver, …), and
//     shared by every rule of the unit;
//   - a Fact is what one unit tells the rest of the run (a checkpoint's id,
//     an orchestration file's compaction events, …). Facts are produced by
//     the indexers, which the engine runs over every unit before its rules,
//     whatever rules are enabled; a rule reads them from the Index and
//     declares so in Requires, from which the engine orders the units.
//
// Neither depends on which rules run: disabling a rule changes no other
// rule's input.

// FactKey identifies a fact in Rule.Requires and Indexer.Produces.
type FactKey interface{ FactName() string }

// Fact is the handle of a cross-file fact whose values have type T.
type Fact[T any] struct{ name string }

// NewFact declares a fact. Its value type is registered (FactTypes): a
// fact outlives its unit, so it may hold no parse node, file or bytes.
func NewFact[T any](name string) *Fact[T] {
	factTypes = append(factTypes, FactType{Name: name, Type: reflect.TypeFor[T]()})
	return &Fact[T]{name: name}
}

// FactType is a declared fact's name and value type, or a per-unit
// result's (ResultTypes).
type FactType struct {
	Name string
	Type reflect.Type
}

var factTypes []FactType

// FactTypes returns every declared fact's value type (facts are declared
// at package initialisation).
func FactTypes() []FactType { return slices.Clone(factTypes) }

// FactName returns the fact's name.
func (f *Fact[T]) FactName() string { return f.name }

// Publish records a value of the fact. Safe for concurrent use.
func (f *Fact[T]) Publish(ix *Index, v T) { f.PublishAt(ix, "", v) }

// PublishAt records a value that At also finds under key.
func (f *Fact[T]) PublishAt(ix *Index, key string, v T) {
	sh := ix.shardOf(key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.all[f] = append(sh.all[f], v)
	if key != "" {
		k := keyed{f, key}
		if _, dup := sh.byKey[k]; !dup {
			sh.byKey[k] = v
		}
	}
}

// All returns every value published so far. Their order depends on
// scheduling: callers that report from them must sort.
func (f *Fact[T]) All(ix *Index) []T {
	if ix == nil {
		return nil
	}
	var out []T
	for i := range ix.shards {
		sh := &ix.shards[i]
		sh.mu.RLock()
		for _, v := range sh.all[f] {
			out = append(out, v.(T))
		}
		sh.mu.RUnlock()
	}
	return out
}

// At returns the first value published under key.
func (f *Fact[T]) At(ix *Index, key string) (T, bool) {
	var zero T
	if ix == nil {
		return zero, false
	}
	sh := ix.shardOf(key)
	sh.mu.RLock()
	v, ok := sh.byKey[keyed{f, key}]
	sh.mu.RUnlock()
	if !ok {
		return zero, false
	}
	return v.(T), true
}

type keyed struct {
	fact any
	key  string
}

// Index is the repository-wide view of a run: the facts (see Fact) the
// indexers publish for every unit. Units are checked in the phases Phase
// derives from what rules require, so a rule sees the facts of every unit
// of the kinds it depends on; then each rule's Finalize sees every fact.
// Facts are small values, not parsed trees, so memory stays flat however
// many files a run checks.
//
// Every worker publishes and looks up facts, so the index is spread over
// shards by key: one lock over it all made a worker whose core was taken
// from it inside the lock (by the OS or the hypervisor) stop every other
// for milliseconds, and made each look-up's read lock a word all cores
// write in turn (docs/performance.md).
type Index struct {
	seed   maphash.Seed
	spread atomic.Uint32 // deals keyless values over the shards
	shards [indexShards]indexShard
	// needles are ContextRelevant's, made once the checkpoints are in.
	needles struct {
		once sync.Once
		v    *contextNeedles
	}
	// memo holds answers about the repository that several units ask
	// (perRun), by key.
	memo sync.Map
}

// memoEntry is one perRun answer, computed once.
type memoEntry struct {
	once sync.Once
	v    any
}

// perRun returns the answer for key, computing it with f the first time
// any unit of the run asks: a question about a folder every unit of it
// asks (RL313's, of the nexus root) costs once, not once per unit. With no
// index (a pass made outside a run) f is called each time.
func perRun[T any](ix *Index, key any, f func() T) T {
	if ix == nil {
		return f()
	}
	e, _ := ix.memo.LoadOrStore(key, &memoEntry{})
	me := e.(*memoEntry)
	me.once.Do(func() { me.v = f() })
	return me.v.(T)
}

// indexShards is how many shards an Index spreads its facts over.
const indexShards = 64

// indexShard holds the facts published under the keys that hash to it.
type indexShard struct {
	mu    sync.RWMutex
	all   map[any][]any
	byKey map[keyed]any
	_     [24]byte // a shard to a cache line
}

// NewIndex returns an empty index.
func NewIndex() *Index {
	ix := &Index{seed: maphash.MakeSeed()}
	for i := range ix.shards {
		ix.shards[i].all = map[any][]any{}
		ix.shards[i].byKey = map[keyed]any{}
	}
	return ix
}

// shardOf is where a value published under key is kept: a key's shard, so
// that At finds the first value published under it; a keyless value goes
// to the next shard in turn.
func (ix *Index) shardOf(key string) *indexShard {
	if key == "" {
		return &ix.shards[ix.spread.Add(1)%indexShards]
	}
	return &ix.shards[maphash.String(ix.seed, key)%indexShards]
}

// Result is the handle of a per-unit value of type T, computed once by
// compute on first use.
type Result[T any] struct {
	name    string
	compute func(p *Pass) T
}

// NewResult declares a per-unit result.
func NewResult[T any](name string, compute func(p *Pass) T) *Result[T] {
	resultTypes = append(resultTypes, FactType{Name: name, Type: reflect.TypeFor[T]()})
	return &Result[T]{name: name, compute: compute}
}

var resultTypes []FactType

// ResultTypes returns every declared per-unit result's name and value type
// (results are declared at package initialisation).
func ResultTypes() []FactType { return slices.Clone(resultTypes) }

// Of returns the unit's value, computing it on first use.
func (r *Result[T]) Of(p *Pass) T {
	if p.Results == nil {
		p.Results = NewResults()
	}
	if v, ok := p.Results.m[r]; ok {
		return v.(T)
	}
	v := r.compute(p)
	p.Results.m[r] = v
	return v
}

// Peek returns the unit's value when it was computed, without computing it.
func (r *Result[T]) Peek(p *Pass) (T, bool) {
	var zero T
	if p.Results == nil {
		return zero, false
	}
	v, ok := p.Results.m[r]
	if !ok {
		return zero, false
	}
	return v.(T), true
}

// Results holds one unit's computed results and the locator that places
// its findings (Report). A unit is checked by one goroutine, so it needs
// no lock.
type Results struct {
	m   map[any]any
	loc *locator
}

// NewResults returns an empty store for one unit.
func NewResults() *Results { return &Results{m: map[any]any{}} }

// Indexer derives a unit's facts. The engine runs every indexer that
// applies to a unit's kind before the unit's rules.
type Indexer struct {
	Name     string
	Kinds    []load.Kind
	Produces []FactKey
	Run      func(p *Pass)
}

var indexers []*Indexer

// RegisterIndexer adds indexers; called from each family's init.
func RegisterIndexer(xs ...*Indexer) { indexers = append(indexers, xs...) }

// Indexers returns every indexer in registration order.
func Indexers() []*Indexer { return indexers }

// AppliesTo reports whether the indexer looks at kind k.
func (x *Indexer) AppliesTo(k load.Kind) bool { return slices.Contains(x.Kinds, k) }

// Kinds are the unit kinds the engine checks.
var Kinds = []load.Kind{load.KindOrchestration, load.KindCheckpoint, load.KindPrecompact,
	load.KindResumeContext, load.KindBundle, load.KindAgentRun}

// Phase returns when units of kind k are checked: after every unit of a
// kind whose indexers produce a fact that a rule looking at k requires.
// Phase 0 goes first.
func Phase(k load.Kind) int {
	phasesOnce.Do(func() { phases = computePhases(All(), indexers) })
	return phases[k]
}

var (
	phases     map[load.Kind]int
	phasesOnce sync.Once
)

// computePhases levels the kinds by the facts their rules require; it
// panics on a kind that requires its own facts or on a cycle, which no
// order of units could satisfy.
func computePhases(rs []*Rule, xs []*Indexer) map[load.Kind]int {
	producers := map[string][]load.Kind{}
	for _, x := range xs {
		for _, f := range x.Produces {
			producers[f.FactName()] = append(producers[f.FactName()], x.Kinds...)
		}
	}
	deps := map[load.Kind][]load.Kind{}
	for _, r := range rs {
		for _, f := range r.Requires {
			for _, k := range Kinds {
				if !r.AppliesTo(k) {
					continue
				}
				for _, from := range producers[f.FactName()] {
					if from == k {
						panic(fmt.Sprintf("rule %s reads fact %s, which units of its own kind %s produce", r.Code, diag.QuoteFull(f.FactName()), k))
					}
					deps[k] = append(deps[k], from)
				}
			}
		}
	}
	out := map[load.Kind]int{}
	var level func(k load.Kind, seen []load.Kind) int
	level = func(k load.Kind, seen []load.Kind) int {
		if slices.Contains(seen, k) {
			panic(fmt.Sprintf("facts required in a cycle through kind %s", k))
		}
		if l, ok := out[k]; ok {
			return l
		}
		l := 0
		for _, d := range deps[k] {
			l = max(l, level(d, append(seen, k))+1)
		}
		out[k] = l
		return l
	}
	for _, k := range Kinds {
		level(k, nil)
	}
	return out
}
