package release

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tracebeat/tracebeat/internal/jarpack"
)

// Coordinates of the release's artifacts.
const (
	Group           = "com.github.tracebeat"
	PluginID        = "com.github.tracebeat"
	ToolArtifact    = "tracebeat"
	ToolExtension   = "exe"
	PluginArtifact  = "tracebeat-gradle"
	MarkerArtifact  = PluginID + ".gradle.plugin"
	RuntimeArtifact = "tracebeat-runtime"
)

// ToolProperties is the plugin jar's resource that names the tool's
// version, coordinates and each binary's SHA-256; the plugin reads it to
// resolve and verify its binary.
const ToolProperties = "com/github/tracebeat/gradle/tracebeat-tool.properties"

// Release is what WriteRepository lays out.
type Release struct {
	Version         string
	Binaries        []Binary
	PluginClasses   map[string][]byte // javac's output, by entry name
	PluginResources map[string][]byte
	RuntimeJar      []byte
}

// Written tells what WriteRepository wrote.
type Written struct {
	Dir        string            // the repository, absolute
	Files      []string          // relative paths of the artifacts (not checksums, metadata)
	BinarySums map[string]string // classifier -> SHA-256 of the binary
}

// WriteRepository writes the release as a Maven repository under dir.
// Versions already there are kept (maven-metadata.xml lists them all).
func WriteRepository(dir string, r Release) (*Written, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	w := &Written{Dir: abs, BinarySums: map[string]string{}}
	repo := repoWriter{dir: abs, version: r.Version, written: w}

	props := []string{
		"# tracebeat release " + r.Version + ": the binary the plugin resolves and the SHA-256 it must have",
		"version=" + r.Version,
		"group=" + Group,
		"artifact=" + ToolArtifact,
		"extension=" + ToolExtension,
	}
	for _, b := range r.Binaries {
		classifier, err := b.Target.Classifier()
		if err != nil {
			return nil, err
		}
		data, err := os.ReadFile(b.Path)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(data)
		w.BinarySums[classifier] = hex.EncodeToString(sum[:])
		props = append(props, "sha256."+classifier+"="+w.BinarySums[classifier])
		if err := repo.artifact(ToolArtifact, classifier, ToolExtension, data); err != nil {
			return nil, err
		}
	}
	if err := repo.pom(ToolArtifact, "pom", "tracebeat, the bytecode instrumenter: one executable per OS and architecture (classifiers)", ""); err != nil {
		return nil, err
	}

	plugin := map[string][]byte{}
	for n, d := range r.PluginClasses {
		plugin[n] = d
	}
	for n, d := range r.PluginResources {
		plugin[n] = d
	}
	slices.Sort(props[1:])
	plugin[ToolProperties] = []byte(strings.Join(props, "\n") + "\n")
	jar, err := jarpack.Pack("Manifest-Version: 1.0\r\nImplementation-Title: tracebeat-gradle\r\nImplementation-Version: "+r.Version+"\r\n\r\n", plugin)
	if err != nil {
		return nil, err
	}
	if err := repo.artifact(PluginArtifact, "", "jar", jar); err != nil {
		return nil, err
	}
	if err := repo.pom(PluginArtifact, "jar", "tracebeat's Gradle plugin", ""); err != nil {
		return nil, err
	}
	// The marker: what plugins { id 'com.github.tracebeat' version 'V' } asks for.
	if err := repo.pom(MarkerArtifact, "pom", "Gradle plugin marker of "+PluginID, PluginArtifact); err != nil {
		return nil, err
	}
	if r.RuntimeJar != nil {
		if err := repo.artifact(RuntimeArtifact, "", "jar", r.RuntimeJar); err != nil {
			return nil, err
		}
		if err := repo.pom(RuntimeArtifact, "jar", "tracebeat's recording runtime for plain JVMs", ""); err != nil {
			return nil, err
		}
	}
	for _, a := range []string{ToolArtifact, PluginArtifact, MarkerArtifact, RuntimeArtifact} {
		if r.RuntimeJar == nil && a == RuntimeArtifact {
			continue
		}
		if err := repo.metadata(a); err != nil {
			return nil, err
		}
	}
	return w, nil
}

type repoWriter struct {
	dir     string
	version string
	written *Written
}

func (r repoWriter) artifactDir(artifact string) string {
	return filepath.Join(r.dir, filepath.FromSlash(strings.ReplaceAll(Group, ".", "/")), artifact)
}

// artifact writes artifact-V[-classifier].ext with its checksums.
func (r repoWriter) artifact(artifact, classifier, ext string, data []byte) error {
	name := artifact + "-" + r.version
	if classifier != "" {
		name += "-" + classifier
	}
	name += "." + ext
	path := filepath.Join(r.artifactDir(artifact), r.version, name)
	if err := writeWithSums(path, data); err != nil {
		return err
	}
	rel, _ := filepath.Rel(r.dir, path)
	r.written.Files = append(r.written.Files, filepath.ToSlash(rel))
	return nil
}

func (r repoWriter) pom(artifact, packaging, description, dependsOn string) error {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
`)
	fmt.Fprintf(&b, "  <groupId>%s</groupId>\n  <artifactId>%s</artifactId>\n  <version>%s</version>\n  <packaging>%s</packaging>\n", Group, artifact, r.version, packaging)
	fmt.Fprintf(&b, "  <name>%s</name>\n  <description>%s</description>\n", artifact, description)
	b.WriteString("  <licenses>\n    <license>\n      <name>Apache-2.0</name>\n    </license>\n  </licenses>\n")
	if dependsOn != "" {
		fmt.Fprintf(&b, "  <dependencies>\n    <dependency>\n      <groupId>%s</groupId>\n      <artifactId>%s</artifactId>\n      <version>%s</version>\n    </dependency>\n  </dependencies>\n", Group, dependsOn, r.version)
	}
	b.WriteString("</project>\n")
	return r.artifact(artifact, "", "pom", []byte(b.String()))
}

// metadata writes maven-metadata.xml listing every version present.
func (r repoWriter) metadata(artifact string) error {
	dir := r.artifactDir(artifact)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var versions []string
	for _, e := range entries {
		if e.IsDir() {
			versions = append(versions, e.Name())
		}
	}
	slices.SortFunc(versions, compareVersions)
	latest := versions[len(versions)-1]
	var b strings.Builder
	fmt.Fprintf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<metadata>\n  <groupId>%s</groupId>\n  <artifactId>%s</artifactId>\n  <versioning>\n    <latest>%s</latest>\n    <release>%s</release>\n    <versions>\n", Group, artifact, latest, latest)
	for _, v := range versions {
		fmt.Fprintf(&b, "      <version>%s</version>\n", v)
	}
	b.WriteString("    </versions>\n  </versioning>\n</metadata>\n")
	return writeWithSums(filepath.Join(dir, "maven-metadata.xml"), []byte(b.String()))
}

// compareVersions orders dotted versions numerically where both parts are
// numbers ("0.10.0" after "0.9.0").
func compareVersions(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		var na, nb int
		_, ea := fmt.Sscanf(pa[i], "%d", &na)
		_, eb := fmt.Sscanf(pb[i], "%d", &nb)
		if ea == nil && eb == nil && na != nb {
			return na - nb
		}
		if c := strings.Compare(pa[i], pb[i]); (ea != nil || eb != nil) && c != 0 {
			return c
		}
	}
	return len(pa) - len(pb)
}

// writeWithSums writes path and path.sha1 and path.sha256 (hex digests, as
// Maven repositories serve them).
func writeWithSums(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if strings.HasSuffix(path, "."+ToolExtension) {
		mode = 0o755 // a plain executable, usable as it lies
	}
	if err := os.WriteFile(path, data, mode); err != nil {
		return err
	}
	s1 := sha1.Sum(data)
	s256 := sha256.Sum256(data)
	if err := os.WriteFile(path+".sha1", []byte(hex.EncodeToString(s1[:])), 0o644); err != nil {
		return err
	}
	return os.WriteFile(path+".sha256", []byte(hex.EncodeToString(s256[:])), 0o644)
}
