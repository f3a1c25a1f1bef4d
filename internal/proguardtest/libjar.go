package proguardtest

import (
	"archive/zip"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// ErrNoJDKClasses is returned by WriteLibraryJar when none of the JDKs has
// jmods/java.base.jmod or an rt.jar (a JRE, or a JDK image without jmods).
var ErrNoJDKClasses = errors.New("no jmods/java.base.jmod or rt.jar")

// libraryMajor is the class-file version the library classes are patched
// to: ProGuard 6.2.2 reads class files up to Java 13, and 52 (Java 8) is
// the newest version whose format holds nothing ProGuard could trip on.
const libraryMajor = 52

// JDKHomes returns the JDKs to take library classes from, in order of
// preference: $JAVA_HOME, then the JDK of the javac on PATH
// (/usr/bin/javac is a chain of symlinks into the JDK's bin).
func JDKHomes() []string {
	var homes []string
	if home := os.Getenv("JAVA_HOME"); home != "" {
		homes = append(homes, home)
	}
	if javac, err := exec.LookPath("javac"); err == nil {
		if real, err := filepath.EvalSymlinks(javac); err == nil {
			homes = append(homes, filepath.Dir(filepath.Dir(real)))
		}
	}
	return homes
}

// librarySource returns the file WriteLibraryJar would read: the first
// rt.jar or jmods/java.base.jmod of jdkHomes.
func librarySource(jdkHomes []string) (path string, isJmod bool, err error) {
	for _, home := range jdkHomes {
		for _, rt := range []string{"jre/lib/rt.jar", "lib/rt.jar"} {
			p := filepath.Join(home, rt)
			if _, err := os.Stat(p); err == nil {
				return p, false, nil
			}
		}
		p := filepath.Join(home, "jmods", "java.base.jmod")
		if _, err := os.Stat(p); err == nil {
			return p, true, nil
		}
	}
	return "", false, fmt.Errorf("JDKs %v: %w", jdkHomes, ErrNoJDKClasses)
}

// WriteLibraryJar writes a jar of the JDK's java.base classes that ProGuard
// 6 can read as -libraryjars, from the first of jdkHomes that has them.
// A JDK 9+ ships them in jmods/java.base.jmod (a zip after a 4-byte "JM"
// header, classes under classes/); a Java 8 JDK's rt.jar is copied as it is.
// The jar is written to a temporary file and renamed into place.
func WriteLibraryJar(jdkHomes []string, jarPath string) error {
	src, isJmod, err := librarySource(jdkHomes)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(jarPath), ".libjar-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename this finds nothing
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if isJmod {
		err = patchJmod(src, tmp)
	} else {
		err = copyFile(src, tmp)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), jarPath)
}

func copyFile(src string, dst io.Writer) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(dst, f)
	return err
}

// patchJmod copies the classes of a jmod into a jar, with their major
// version set to libraryMajor. Entries are written in name order, so the
// jar depends only on the jmod.
func patchJmod(jmodPath string, out io.Writer) error {
	f, err := os.Open(jmodPath)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	const headerSize = 4 // "JM", major, minor
	zr, err := zip.NewReader(io.NewSectionReader(f, headerSize, st.Size()-headerSize), st.Size()-headerSize)
	if err != nil {
		return fmt.Errorf("%s: not a jmod: %w", jmodPath, err)
	}
	files := append([]*zip.File(nil), zr.File...)
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	zw := zip.NewWriter(out)
	for _, e := range files {
		name, ok := strings.CutPrefix(e.Name, "classes/")
		if !ok || !strings.HasSuffix(name, ".class") || name == "module-info.class" {
			continue
		}
		data, err := readEntry(e)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", jmodPath, e.Name, err)
		}
		if len(data) < 8 || binary.BigEndian.Uint32(data) != 0xCAFEBABE {
			return fmt.Errorf("%s: %s: not a class file", jmodPath, e.Name)
		}
		binary.BigEndian.PutUint16(data[6:8], libraryMajor)
		if err := AddStored(zw, name, data); err != nil {
			return fmt.Errorf("%s: %s: %w", jmodPath, e.Name, err)
		}
	}
	return zw.Close()
}

func readEntry(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// AddStored adds an uncompressed entry with its sizes in the local header:
// ProGuard 6 rejects stored entries that use a trailing data descriptor,
// which zip.Writer.Create would write. The entry has no timestamp (the
// zip epoch), so jars built from the same files are identical.
func AddStored(zw *zip.Writer, name string, data []byte) error {
	w, err := zw.CreateRaw(&zip.FileHeader{
		Name:               name,
		Method:             zip.Store,
		CRC32:              crc32.ChecksumIEEE(data),
		CompressedSize64:   uint64(len(data)),
		UncompressedSize64: uint64(len(data)),
	})
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}
