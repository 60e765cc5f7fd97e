;;; emacs_eglot.el --- goose-ls in batch Emacs 28 (Debian's Eglot 1.9) and Emacs 30 (built-in Eglot),
;;; set up as the README says: diagnostics, completion inside {{ }}, a quick fix applied, and an agent
;;; run that reads a text buffer's unsaved line and whose edit lands in that buffer, unsaved.
(princ (format "VERSION %s\n" emacs-version))
(when (< emacs-major-version 29)
  (require 'package)
  (add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
  (package-initialize))
(require 'eglot)
(require 'flymake)
(require 'cl-lib)

(define-derived-mode goose-yaml-mode prog-mode "YAML"
  "A stand-in YAML mode (Emacs 28 has none; Emacs 30's yaml-ts-mode needs a tree-sitter grammar).")
(add-to-list 'auto-mode-alist '("\\.ya?ml\\'" . goose-yaml-mode))
;; the README's setting, with the stand-in mode in place of yaml-mode
(add-to-list 'eglot-server-programs
             '(((goose-yaml-mode :language-id "yaml") (text-mode :language-id "plaintext")) . ("goose-ls")))
(setq eglot-confirm-server-initiated-edits nil)

(defun goose-fail (fmt &rest args)
  (princ (concat "FAIL: " (apply #'format fmt args) "\n") #'external-debugging-output)
  (kill-emacs 2))

(defun goose-flush ()
  "Send pending edits now: Eglot sends didChange from an idle timer, and batch Emacs is never idle."
  (dolist (b (buffer-list))
    (with-current-buffer b
      (when (bound-and-true-p eglot--managed-mode)
        (eglot--signal-textDocument/didChange)))))

(defun goose-wait (what pred &optional seconds)
  "Wait until PRED holds, SECONDS (20) at most, handling server messages meanwhile."
  (let ((deadline (+ (float-time) (or seconds 20))))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (goose-flush)
      (accept-process-output nil 0.05))
    (or (funcall pred) (goose-fail "timed out waiting for %s" what))))

;; the run's end, from goose-ls's goose/runEvent notifications
(defvar goose-run-status nil)
(cl-defmethod eglot-handle-notification (_server (_method (eql goose/runEvent)) &key kind status agent &allow-other-keys)
  (when (and (equal kind "done") (member agent '(nil "")))
    (setq goose-run-status status)))

(defun goose-missing-diagnostic ()
  (flymake-start)
  (cl-find-if (lambda (d) (string-match-p "Missing definitions for parameters" (flymake-diagnostic-text d)))
              (flymake-diagnostics)))

(let* ((root (file-name-as-directory (getenv "WORK_DIR")))
       (recipe (expand-file-name "write.recipe.yaml" root))
       notes buf server)
  ;; a text file with an unsaved line, then the recipe
  (find-file (expand-file-name "notes.txt" root))
  (setq notes (current-buffer))
  (unless (derived-mode-p 'text-mode) (goose-fail "notes.txt is in %s" major-mode))
  (goto-char (point-max))
  (insert "unsaved line\n")
  (find-file recipe)
  (setq buf (current-buffer))
  (condition-case err
      (call-interactively #'eglot)
    (error (goose-fail "eglot did not start: %S" err)))
  (setq server (eglot-current-server))
  (unless server (goose-fail "no server"))
  (with-current-buffer notes
    (unless (eq (eglot-current-server) server) (goose-fail "notes.txt is not managed by the server")))

  ;; 1. diagnostics, with the range of the variable
  (goose-wait "the diagnostic" #'goose-missing-diagnostic)
  (let ((d (goose-missing-diagnostic)))
    (unless (string= (buffer-substring (flymake-diagnostic-beg d) (flymake-diagnostic-end d)) "topic")
      (goose-fail "diagnostic range covers %S" (buffer-substring (flymake-diagnostic-beg d) (flymake-diagnostic-end d)))))

  ;; 2. the quick fix, through eglot-code-actions as a user runs it
  ;; (a keyboard event last, so a menu of several actions is a completing-read, not a popup menu)
  (let ((d (goose-missing-diagnostic))
        (last-nonmenu-event ?\r))
    (cl-letf (((symbol-function 'completing-read)
               (lambda (_prompt collection &rest _)
                 (or (cl-find "Add parameter \"topic\"" (all-completions "" collection) :test #'string=)
                     (goose-fail "no quick fix among %S" (all-completions "" collection))))))
      (eglot-code-actions (flymake-diagnostic-beg d) (flymake-diagnostic-end d) "quickfix" t)))
  (goose-wait "the quick fix" (lambda () (with-current-buffer buf
                                           (save-excursion (goto-char (point-min)) (search-forward "- key: topic" nil t)))))
  (goose-wait "the diagnostic to clear" (lambda () (with-current-buffer buf (null (goose-missing-diagnostic)))))

  ;; 3. completion inside {{ }} (the parameter the fix declared) through completion-at-point's table
  (goto-char (point-min))
  (search-forward "{{ to")
  (let* ((capf (eglot-completion-at-point))
         (labels (and capf (all-completions (buffer-substring (nth 0 capf) (nth 1 capf)) (nth 2 capf)))))
    (unless (member "topic" labels) (goose-fail "completion at {{ to: %S" labels)))

  ;; 4. an agent run: the model reads notes.txt (the test checks it saw the unsaved line) and edits it
  (let ((reply (jsonrpc-request server :workspace/executeCommand
                                `(:command "goose.runRecipe"
                                  :arguments [(:uri ,(concat "file://" recipe) :params (:topic "agents"))]))))
    (unless (plist-get reply :runId) (goose-fail "goose.runRecipe answered %S" reply)))
  (goose-wait "the run's end" (lambda () goose-run-status) 30)
  (unless (equal goose-run-status "completed") (goose-fail "run %s" goose-run-status))
  (with-current-buffer notes
    (unless (string= (buffer-string) "alpha\ngamma\nunsaved line\n") (goose-fail "notes buffer: %S" (buffer-string)))
    (unless (buffer-modified-p) (goose-fail "notes.txt was saved behind the user")))
  (with-temp-buffer
    (insert-file-contents (expand-file-name "notes.txt" root))
    (unless (string= (buffer-string) "alpha\nbeta\n") (goose-fail "notes.txt on disk: %S" (buffer-string)))))

(princ "OK\n")
(kill-emacs 0)
