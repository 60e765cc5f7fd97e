// goose's keyring entry on Windows: the generic credential goose's keyring crate names "secrets.goose"
// (user.service), its blob the JSON text in UTF-16LE. go-keyring names credentials "goose:secrets" and
// stores UTF-8, so wincred (go-keyring's own Credential Manager library) is used directly.

package secretstore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"syscall"
	"unicode/utf16"

	"github.com/danieljoos/wincred"
)

const targetName = User + "." + Service

// maxBlob is Credential Manager's limit on a credential's blob (CRED_MAX_CREDENTIAL_BLOB_SIZE).
const maxBlob = 5 * 512

func platformGet() (string, error) {
	cred, err := wincred.GetGenericCredential(targetName)
	if errors.Is(err, syscall.ERROR_NOT_FOUND) {
		return "", errNoEntry
	}
	if err != nil {
		return "", err
	}
	b := cred.CredentialBlob
	if len(b)%2 != 0 {
		return "", errors.New("the credential's blob is not UTF-16")
	}
	units := make([]uint16, len(b)/2)
	for i := range units {
		units[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	return string(utf16.Decode(units)), nil
}

func platformSet(text string) error {
	units := utf16.Encode([]rune(text))
	if 2*len(units) > maxBlob {
		return fmt.Errorf("the secrets are longer than Credential Manager holds (%d bytes)", 2*len(units))
	}
	blob := make([]byte, 2*len(units))
	for i, u := range units {
		binary.LittleEndian.PutUint16(blob[2*i:], u)
	}
	cred, err := wincred.GetGenericCredential(targetName)
	if err != nil {
		cred = wincred.NewGenericCredential(targetName)
		cred.UserName = User
		cred.Persist = wincred.PersistEnterprise
	}
	cred.CredentialBlob = blob
	return cred.Write()
}
