// Package code names every rule code of SPEC §3, so the loader, the
// bundle verifier, the command line and the configuration can refer to a
// rule without importing the catalog. It imports nothing.
package code

// Internal marks a finding about resumelint's own failure.
const Internal = "RL000"

// The rule codes, named after the rules.
const (
	ParseError             = "RL001" // parse-error
	DuplicateKey           = "RL002" // duplicate-key
	InputLimits            = "RL003" // input-limits
	Encoding               = "RL004" // encoding
	SecretLeak             = "RL005" // secret-leak
	TimestampFormat        = "RL006" // timestamp-format
	UnusedSuppression      = "RL007" // unused-suppression
	FutureTimestamp        = "RL008" // future-timestamp
	UnknownKind            = "RL009" // unknown-kind
	UnknownKey             = "RL010" // unknown-key
	ResumptionMissing      = "RL100" // resumption-missing
	ResumptionV1           = "RL101" // resumption-v1
	ResumptionSchema       = "RL102" // resumption-schema
	DecisionsAlias         = "RL103" // decisions-alias
	CheckpointLink         = "RL104" // checkpoint-link
	PhaseConsistency       = "RL105" // phase-consistency
	WorkflowStatus         = "RL106" // workflow-status
	StaleResumption        = "RL107" // stale-resumption
	QualityTrajectory      = "RL108" // quality-trajectory
	DefectSummary          = "RL109" // defect-summary
	DecisionLog            = "RL110" // decision-log
	AgentSummaries         = "RL111" // agent-summaries
	CompactionEvents       = "RL112" // compaction-events
	FilesToRead            = "RL113" // files-to-read
	TemplatePlaceholder    = "RL114" // template-placeholder
	MixedVersion           = "RL115" // mixed-version
	ActivityVocabulary     = "RL116" // activity-vocabulary
	AgentSummaryForm       = "RL117" // agent-summary-form
	ResumptionText         = "RL118" // resumption-text
	CompleteWithDefects    = "RL119" // complete-with-defects
	NextActions            = "RL120" // next-actions
	CheckpointOrder        = "RL121" // checkpoint-order
	GatePhase              = "RL122" // gate-phase
	CheckpointLogBehind    = "RL123" // checkpoint-log-behind
	OutputsAhead           = "RL124" // outputs-ahead
	WorkItemDone           = "RL125" // work-item-done
	CheckpointSchema       = "RL201" // checkpoint-schema
	CheckpointName         = "RL202" // checkpoint-name
	CheckpointAck          = "RL203" // checkpoint-ack
	CheckpointContext      = "RL204" // checkpoint-context
	CheckpointPhases       = "RL205" // checkpoint-phases
	CheckpointMerge        = "RL206" // checkpoint-merge
	CheckpointFiles        = "RL207" // checkpoint-files
	PrecompactSchema       = "RL301" // precompact-schema
	PrecompactFlat         = "RL302" // precompact-flat
	PrecompactSize         = "RL303" // precompact-size
	PrecompactProject      = "RL304" // precompact-project
	Frontmatter            = "RL310" // frontmatter
	ResumeContextSchema    = "RL311" // resume-context-schema
	LegacyResumeVersion    = "RL312" // legacy-resume-version
	LegacyResumeFilename   = "RL313" // legacy-resume-filename
	FilesToLoad            = "RL314" // files-to-load
	Progress               = "RL315" // progress
	ValidationGate         = "RL316" // validation-gate
	NoDuplication          = "RL317" // no-duplication
	ProjectIDFolder        = "RL318" // project-id-folder
	ProgressVsSteps        = "RL319" // progress-vs-steps
	BuildLocation          = "RL320" // build-location
	BundleIncomplete       = "RL401" // bundle-incomplete
	BundleArtifactSchema   = "RL402" // bundle-artifact-schema
	BundleStatus           = "RL403" // bundle-status
	BundleValidator        = "RL404" // bundle-validator
	BundleOutputs          = "RL405" // bundle-outputs
	BundleForbidden        = "RL406" // bundle-forbidden
	TaskGraphSchema        = "RL501" // task-graph-schema
	TaskGraphDeps          = "RL502" // task-graph-deps
	EventCorrupt           = "RL503" // event-corrupt
	EventLocation          = "RL504" // event-location
	EventSequence          = "RL505" // event-sequence
	RunArtifacts           = "RL506" // run-artifacts
	RunStale               = "RL507" // run-stale
	MultipleIncompleteRuns = "RL508" // multiple-incomplete-runs
	AppendOnly             = "RL601" // append-only
	EventLogAppendOnly     = "RL602" // event-log-append-only
	UpdateProtocol         = "RL603" // update-protocol
	ResumeContextUpdate    = "RL604" // resume-context-update
)
