;;; emacs_eglot.el --- goose-ls smoke test in batch Emacs with Debian's Eglot: diagnostics arrive.
(require 'package)
(add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
(package-initialize)
(require 'eglot)
(require 'flymake)

(define-derived-mode goose-yaml-mode prog-mode "YAML" "A stand-in YAML mode (Emacs 28 has none).")
(add-to-list 'eglot-server-programs
             `((goose-yaml-mode :language-id "yaml") . (,(getenv "GOOSE_LS_BIN"))))
(setq eglot-confirm-server-initiated-edits nil)

(defun goose-fail (fmt &rest args)
  (princ (concat "FAIL: " (apply #'format fmt args) "\n") #'external-debugging-output)
  (kill-emacs 2))

(find-file (getenv "RECIPE_FILE"))
(goose-yaml-mode)
(condition-case err
    (call-interactively #'eglot)
  (error (goose-fail "eglot did not start: %S" err)))
(unless (eglot-current-server) (goose-fail "no server"))
(flymake-start)

(let ((deadline (+ (float-time) 20)) found)
  (while (and (not found) (< (float-time) deadline))
    (accept-process-output nil 0.1)
    (flymake-start)
    (dolist (d (flymake-diagnostics))
      (when (string-match-p "Missing definitions for parameters" (flymake-diagnostic-text d))
        (setq found d))))
  (unless found (goose-fail "no goose-ls diagnostic; have %S" (mapcar #'flymake-diagnostic-text (flymake-diagnostics))))
  (princ (format "diagnostic at %d-%d: %s\n" (flymake-diagnostic-beg found) (flymake-diagnostic-end found)
                 (flymake-diagnostic-text found)))
  (unless (string= (buffer-substring (flymake-diagnostic-beg found) (flymake-diagnostic-end found)) "topic")
    (goose-fail "diagnostic range covers %S" (buffer-substring (flymake-diagnostic-beg found) (flymake-diagnostic-end found)))))
(princ "OK\n")
(kill-emacs 0)
