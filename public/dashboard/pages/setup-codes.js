// First-run setup, the recovery codes once they are shown: copy them, or download them as a
// text file, so they can be kept somewhere safe without retyping ten codes. The codes are read
// from the list setup.js fills; they never leave the page except to the clipboard or the file.
import { pageIds } from '../../shared/page.js';

const $ = pageIds(['codes', 'codes-said', 'codes-copy', 'codes-download'], 'setup (recovery codes)');

function codesText() {
  var codes = Array.prototype.map.call($('codes').children, function (li) {
    return li.textContent;
  });
  return (
    'Farsight recovery codes for ' +
    location.host +
    '\n' +
    'Each code signs you in once if you lose your authenticator.\n\n' +
    codes.join('\n') +
    '\n'
  );
}

function say(text) {
  $('codes-said').textContent = text;
}

$('codes-copy').addEventListener('click', function () {
  if (!navigator.clipboard)
    return say('This browser cannot copy from the page here: select the codes and copy them by hand.');
  navigator.clipboard.writeText(codesText()).then(
    function () {
      say('Copied the 10 codes.');
    },
    function () {
      say('The codes could not be copied: select them and copy them by hand.');
    },
  );
});

$('codes-download').addEventListener('click', function () {
  var url = URL.createObjectURL(new Blob([codesText()], { type: 'text/plain;charset=utf-8' }));
  var a = document.createElement('a');
  a.href = url;
  a.download = 'farsight-recovery-codes.txt';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(function () {
    URL.revokeObjectURL(url);
  }, 1000);
  say('Downloaded farsight-recovery-codes.txt: keep it somewhere safe, away from this computer if you can.');
});
