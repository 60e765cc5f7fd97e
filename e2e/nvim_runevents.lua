-- The Neovim plugin's transcript fed the shared goose/runEvent fixtures (agent/host/testdata/runevents,
-- the JSON the Go host is tested to send; $RUNEVENTS names the folder): lines, turns, session, status.
local dir = assert(os.getenv('RUNEVENTS'), 'RUNEVENTS is not set')

local function fail(msg)
  io.stderr:write('FAIL: ' .. msg .. '\n')
  vim.cmd('cquit 1')
end

-- event returns the i-th (from 0) fixture event of a kind
local function event(kind, i)
  local f = assert(io.open(dir .. '/' .. kind .. '.json', 'r'))
  local list = vim.fn.json_decode(f:read('*a'))
  f:close()
  local ev = list[(i or 0) + 1]
  if not ev then fail(kind .. '.json has no event ' .. (i or 0)) end
  return ev
end

vim.notify = function() end -- the plugin announces the run's end; not under test here
local run = require('goose_ls.run')
for _, ev in ipairs({
  event('start'), event('text', 0), event('text', 1), event('toolStart', 0), event('toolEnd', 0),
  event('edit', 0), event('edit', 2), event('edit', 3), event('session'), event('toolEnd', 1),
  event('notice'), event('finalOutput'), event('done'),
}) do
  run.on_event(ev)
end

local st = run.state()
local got = vim.api.nvim_buf_get_lines(st.buf, 0, -1, false)
local want = {
  '', '## Writer', 'I will **edit** notes.txt', '> edit', '  ok edited notes.txt', '', '[sub]   x ok', '',
  'notice: Context limit reached. Compacting to continue conversation...', 'final output: {"a":1}', '-- completed',
}
if not vim.deep_equal(got, want) then fail('transcript:\n' .. table.concat(got, '\n')) end
local r = st.runs['run-1']
if not r then fail('no run-1 in the state') end
if r.session ~= '20260101_1' then fail('session ' .. tostring(r.session)) end
if r.status ~= 'completed' then fail('status ' .. tostring(r.status)) end
if not vim.deep_equal(r.turns, { 1, 1, 3 }) then fail('turns ' .. vim.inspect(r.turns)) end
io.stdout:write('runevents ok\n')
vim.cmd('qall!')
