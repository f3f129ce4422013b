package rules

import (
	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// Checkpoint files under .jerry/checkpoints/ (SPEC §3.3, seed 001).

var CheckpointSchema = &Rule{Code: code.CheckpointSchema, Name: "checkpoint-schema", Severity: diag.SevError, Kinds: []load.Kind{load.KindCheckpoint}, Family: "checkpoint",
	Summary: "a violation of #Checkpoint or #RuntimeCheckpoint", Run: runCheckpointSchema}

func init() { Register(CheckpointSchema) }

func runCheckpointSchema(p *Pass) {
	if !requireMapping(p, p.Doc, "a checkpoint file") {
		return
	}
	def := "#Checkpoint"
	if checkpointOf(p).Runtime.CheckpointID.Key != nil {
		def = "#RuntimeCheckpoint"
	}
	validate(p, p.Doc.File, def, p.Doc.Root, "")
}
