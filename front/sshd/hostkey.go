package sshd

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	gossh "golang.org/x/crypto/ssh"
)

// loadOrCreateHostKey reads the host key at path, or generates an ed25519
// key and writes it there if the file does not exist. A file that exists
// but does not hold a key is an error and is left untouched: replacing it
// would change the server's identity behind the operator's back.
func loadOrCreateHostKey(path string) (signer gossh.Signer, created bool, err error) {
	if path == "" {
		return nil, false, errors.New("sshd: no host key path")
	}
	data, err := readHostKey(path)
	switch {
	case err == nil:
		signer, err := gossh.ParsePrivateKey(data)
		if err != nil {
			return nil, false, fmt.Errorf("sshd: host key %s: %w", path, err)
		}
		return signer, false, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, false, fmt.Errorf("sshd: host key: %w", err)
	}

	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, false, fmt.Errorf("sshd: generate host key: %w", err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "gridlag host key")
	if err != nil {
		return nil, false, fmt.Errorf("sshd: encode host key: %w", err)
	}
	if err := writeFileAtomic(path, pem.EncodeToMemory(block)); err != nil {
		if errors.Is(err, fs.ErrExist) {
			// Another process created the key first: use theirs.
			return loadOrCreateHostKey(path)
		}
		return nil, false, fmt.Errorf("sshd: write host key: %w", err)
	}
	signer, err = gossh.NewSignerFromKey(priv)
	if err != nil {
		return nil, false, fmt.Errorf("sshd: host key: %w", err)
	}
	return signer, true, nil
}

// maxHostKey is the largest host key file read: an RSA key of 16384 bits
// in PEM takes about 13 KB.
const maxHostKey = 64 << 10

// readHostKey reads the host key file at path: a regular file of at most
// maxHostKey bytes (a device, a FIFO, a huge file is refused, not read
// for ever), quoting nothing of what it holds.
func readHostKey(path string) ([]byte, error) {
	check := func(st os.FileInfo) error {
		switch {
		case !st.Mode().IsRegular():
			return fmt.Errorf("%s is not a regular file: a host key is a file", path)
		case st.Size() > maxHostKey:
			return fmt.Errorf("%s is larger than %d bytes: not a host key", path, maxHostKey)
		}
		return nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := check(st); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0) // never blocks, if a FIFO took its place
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := check(st); err != nil {
		return nil, err
	}
	return io.ReadAll(io.LimitReader(f, maxHostKey))
}

// writeFileAtomic writes data to path with mode 0600, creating the parent
// directory (0700) if needed. It writes a temporary file and renames it,
// and refuses to replace a file that appeared in the meantime, so a crash
// or a concurrent start never leaves a half-written or swapped key.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".hostkey-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	// Link fails if path exists, unlike Rename; fall back to Rename on
	// file systems without hard links.
	err = os.Link(tmp, path)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	return os.Rename(tmp, path)
}
