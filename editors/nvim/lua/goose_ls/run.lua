-- Agent commands over the server's workspace/executeCommand API (docs/protocol.md): run a recipe (asking
-- for missing parameters with vim.ui), ask about a selection, cancel, undo a turn, resume a session;
-- the goose/runEvent stream is kept in a transcript buffer (:GooseTranscript).
local M = {}

local state = { runs = {}, last = nil, buf = nil }

local compat = require('goose_ls.compat')

local function client(bufnr) return require('goose_ls').client(bufnr) end

local function notify(msg, level) vim.notify('goose: ' .. msg, level or vim.log.levels.INFO) end

-- exec runs a server command and calls cb(result) on success
local function exec(command, arg, cb, bufnr)
  local c = client(bufnr)
  if not c then return notify('goose-ls is not running', vim.log.levels.ERROR) end
  compat.request(c, 'workspace/executeCommand', { command = command, arguments = { arg or vim.empty_dict() } }, function(err, res)
    if err then return notify(command .. ': ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR) end
    if cb then cb(res) end
  end, bufnr)
end

-- transcript ---------------------------------------------------------------------------------------

local function transcript()
  if state.buf and vim.api.nvim_buf_is_valid(state.buf) then return state.buf end
  state.buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(state.buf, 'goose://transcript')
  vim.bo[state.buf].filetype = 'markdown'
  return state.buf
end

local function append(text, newline)
  local b = transcript()
  local lines = vim.split(text, '\n', { plain = true })
  local last = vim.api.nvim_buf_line_count(b)
  if newline then
    vim.api.nvim_buf_set_lines(b, last, last, false, lines)
  else
    local cur = vim.api.nvim_buf_get_lines(b, last - 1, last, false)[1] or ''
    lines[1] = cur .. lines[1]
    vim.api.nvim_buf_set_lines(b, last - 1, last, false, lines)
  end
end

function M.on_event(ev)
  local run = state.runs[ev.runId] or { turns = {} }
  state.runs[ev.runId] = run
  local who = (ev.agent and ev.agent ~= '') and ('[' .. ev.agent .. '] ') or ''
  if ev.kind == 'start' then
    append('## ' .. (ev.title or ev.runId), true)
    append('', true) -- the reply starts on a line of its own
  elseif ev.kind == 'text' then
    append(ev.text or '', false)
  elseif ev.kind == 'toolStart' then
    append(who .. '> ' .. ev.tool, true)
  elseif ev.kind == 'toolEnd' then
    append(who .. (ev.isError and '  x ' or '  ok ') .. (vim.split(ev.result or '', '\n')[1] or ''), true)
    append('', true)
  elseif ev.kind == 'edit' then
    run.turns[#run.turns + 1] = ev.turn
  elseif ev.kind == 'session' then
    run.session = ev.sessionId
  elseif ev.kind == 'finalOutput' then
    append('final output: ' .. ev.text, true)
  elseif ev.kind == 'notice' or ev.kind == 'message' or ev.kind == 'error' then
    append(who .. ev.kind .. ': ' .. (ev.text or ''), true)
  elseif ev.kind == 'done' and who == '' then
    run.status = ev.status
    append('-- ' .. ev.status, true)
    notify(ev.runId .. ' ' .. ev.status, ev.status == 'completed' and vim.log.levels.INFO or vim.log.levels.WARN)
  end
end

function M.handlers()
  return { ['goose/runEvent'] = function(_, ev) if ev then M.on_event(ev) end end }
end

function M.state() return state end

-- parameters --------------------------------------------------------------------------------------

-- ask_params asks, one after another, for each required parameter without a value
local function ask_params(params, values, i, done)
  local p = params[i]
  if not p then return done(values) end
  local next = function(v)
    if v == nil then return notify('run cancelled') end
    values[p.key] = v
    ask_params(params, values, i + 1, done)
  end
  if values[p.key] ~= nil or (p.requirement == 'optional') or (p.default ~= nil and p.requirement ~= 'user_prompt') then
    return ask_params(params, values, i + 1, done)
  end
  local prompt = p.key .. (p.description and p.description ~= '' and (' (' .. p.description .. ')') or '') .. ': '
  if p.input_type == 'select' and p.options then
    vim.ui.select(p.options, { prompt = prompt }, next)
  elseif p.input_type == 'boolean' then
    vim.ui.select({ 'true', 'false' }, { prompt = prompt }, next)
  else
    vim.ui.input({ prompt = prompt, default = p.default and tostring(p.default) or nil, completion = p.input_type == 'file' and 'file' or nil }, next)
  end
end

function M.run_recipe(uri, given)
  local bufnr = vim.uri_to_bufnr(uri)
  exec('goose.recipeParameters', { uri = uri }, function(params)
    ask_params(params or {}, given or {}, 1, function(values)
      local arg = { uri = uri, params = vim.tbl_isempty(values) and vim.empty_dict() or values }
      exec('goose.runRecipe', arg, function(res)
        state.last = res.runId
        notify(res.runId .. ' started (:GooseTranscript to follow it)')
      end, bufnr)
    end)
  end, bufnr)
end

-- commands ----------------------------------------------------------------------------------------

local function parse_kv(fargs)
  local values = {}
  for _, a in ipairs(fargs) do
    local k, v = a:match('^([^=]+)=(.*)$')
    if k then values[k] = v end
  end
  return values
end

function M.setup_commands()
  local cmd = vim.api.nvim_create_user_command
  cmd('GooseRun', function(o)
    local name = o.fargs[1]
    if name and not name:find('=', 1, true) then
      -- a bare name (or a path): the recipe goose would run by that name, found by the server
      exec('goose.resolveRecipe', { name = name }, function(res)
        M.run_recipe(res.uri, parse_kv(vim.list_slice(o.fargs, 2)))
      end, 0)
      return
    end
    M.run_recipe(vim.uri_from_bufnr(0), parse_kv(o.fargs))
  end, { nargs = '*', desc = 'Run the recipe in this buffer, or the one goose finds by NAME (KEY=VALUE sets a parameter)' })
  cmd('GooseAsk', function(o)
    local uri = vim.uri_from_bufnr(0)
    local range
    if o.range > 0 then
      range = { start = { line = o.line1 - 1, character = 0 }, ['end'] = { line = o.line2, character = 0 } }
    end
    local send = function(prompt)
      if not prompt or prompt == '' then return end
      exec('goose.ask', { prompt = prompt, uri = uri, range = range }, function(res)
        state.last = res.runId
        notify(res.runId .. ' started (:GooseTranscript to follow it)')
      end, 0)
    end
    if o.args ~= '' then send(o.args) else vim.ui.input({ prompt = 'Ask goose: ' }, send) end
  end, { nargs = '*', range = true, desc = 'Ask goose (about the selected lines)' })
  cmd('GooseCancel', function()
    local last = state.last and state.runs[state.last]
    if not state.last or (last and last.status) then return notify('no run in progress') end
    exec('goose.cancel', { runId = state.last })
  end, { desc = 'Cancel the last goose run' })
  cmd('GooseUndo', function()
    local run = state.last and state.runs[state.last]
    local turn = run and table.remove(run.turns)
    if not turn then return notify('nothing to undo') end
    while run.turns[#run.turns] == turn do table.remove(run.turns) end
    exec('goose.undoTurn', { runId = state.last, turn = turn }, function(res)
      notify('undid turn ' .. turn .. ': ' .. table.concat(res.reverted or {}, ', '))
    end)
  end, { desc = "Undo the last goose turn's edits" })
  cmd('GooseSessions', function()
    exec('goose.listSessions', nil, function(list)
      if not list or #list == 0 then return notify('no sessions') end
      vim.ui.select(list, { prompt = 'Resume session', format_item = function(s) return s.id .. '  ' .. s.name end }, function(s)
        if not s then return end
        vim.ui.input({ prompt = 'Prompt: ' }, function(prompt)
          exec('goose.resume', { sessionId = s.id, prompt = prompt or '' }, function(res)
            state.last = res.runId
            notify(res.runId .. ' resumes ' .. s.id .. ' (:GooseTranscript to follow it)')
          end)
        end)
      end)
    end)
  end, { desc = 'List goose sessions and resume one' })
  cmd('GoosePreview', function(o)
    require('goose_ls.preview').open(vim.api.nvim_get_current_buf(), parse_kv(o.fargs))
  end, { nargs = '*', desc = 'Preview the recipe as goose renders it (KEY=VALUE sets a parameter)' })
  cmd('GooseTranscript', function()
    vim.cmd('botright split')
    vim.api.nvim_win_set_buf(0, transcript())
  end, { desc = 'Show the goose transcript' })
  -- the "Run recipe" code lens runs this client-side command, which asks for parameters first
  vim.lsp.commands['goose.runRecipe'] = function(command)
    local arg = command.arguments and command.arguments[1] or {}
    M.run_recipe(arg.uri or vim.uri_from_bufnr(0), {})
  end
end

return M
