package schema

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// FuzzValidate feeds arbitrary YAML documents to every definition: the
// validator must never panic, and every violation must sit at a data node
// with a position and carry a message.
func FuzzValidate(f *testing.F) {
	f.Add([]byte(validV2), uint8(0))
	f.Add([]byte("checkpoint_id: cx-001\ncontext_state: {fill_percentage: 2, tier: x}\ncreated_at: yesterday\n"), uint8(2))
	f.Add([]byte("active_project_id: 1\nconfidence: maybe\nproject_detection: {a: 1}\n"), uint8(3))
	f.Add([]byte("resume_schema_version: 1.0\nfiles_to_load: x\n"), uint8(4))
	f.Add([]byte("tasks: [{id: 1, depends_on: [a, a]}, 3]\n"), uint8(8))
	f.Add([]byte("- 1\n- a: [b]\n"), uint8(5))
	defs := []string{"#ResumptionV2", "#ResumptionV1", "#RuntimeCheckpoint", "#PrecompactState", "#ResumeContext",
		"#TaskSpec", "#Status", "#OutputHashes", "#TaskGraph", "#Event", "#Checkpoint", "#Config"}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
			return
		}
		root := doc.Content[0]
		if countNodes(root, 0) > 2000 {
			return // alias expansion is bounded by the loader, not here
		}
		def := defs[int(which)%len(defs)]
		vs, err := Validate(def, root, Options{Prefix: "x", Template: which%2 == 0})
		if err != nil {
			return // data CUE cannot represent (e.g. NaN) is an error, not a panic
		}
		for _, v := range vs {
			n := v.Node
			if v.Key != nil {
				n = v.Key
			}
			if n == nil || n.Line < 1 || v.Message == "" {
				t.Fatalf("%s: violation without position or message: %+v", def, v)
			}
		}
	})
}

func countNodes(n *yaml.Node, depth int) int {
	if n == nil || depth > 50 {
		return 1 << 20
	}
	c := 1
	if n.Kind == yaml.AliasNode {
		return c + countNodes(n.Alias, depth+1)
	}
	for _, k := range n.Content {
		c += countNodes(k, depth+1)
	}
	return c
}
