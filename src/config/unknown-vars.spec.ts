import { editDistance, unknownVariableWarnings } from './unknown-vars';

describe('unknownVariableWarnings', () => {
  it.each<[string, string[], string[]]>([
    [
      'a typo names the closest setting',
      ['FARSIGHT_LISTN'],
      [
        'FARSIGHT_LISTN is not a Farsight setting and is ignored: did you mean FARSIGHT_LISTEN? (docs/configuration.md lists them)',
      ],
    ],
    [
      'two letters swapped',
      ['FARSIGHT_PUBLIC_ULR'],
      [
        'FARSIGHT_PUBLIC_ULR is not a Farsight setting and is ignored: did you mean FARSIGHT_PUBLIC_URL? (docs/configuration.md lists them)',
      ],
    ],
    [
      'a name near nothing says so without a guess',
      ['FARSIGHT_WHATEVER_ELSE'],
      ['FARSIGHT_WHATEVER_ELSE is not a Farsight setting and is ignored (docs/configuration.md lists them)'],
    ],
    ['known settings say nothing', ['FARSIGHT_LISTEN', 'FARSIGHT_CANARIES', 'FARSIGHT_SECRET_KEY_FILE'], []],
    [
      'a setting given as a file says nothing',
      ['FARSIGHT_SMTP_FILE', 'FARSIGHT_CHALLENGE_SECRET_FILE', 'FARSIGHT_LOG_LEVEL_FILE'],
      [],
    ],
    [
      'the build and test tools’ variables say nothing',
      ['FARSIGHT_SKIP_BUILD', 'FARSIGHT_CODE_CACHE', 'FARSIGHT_ENV_FILE'],
      [],
    ],
    ['other programs’ variables say nothing', ['PATH', 'HOME', 'NODE_OPTIONS', 'FARSIGHTX'], []],
    [
      '_FILE of an unknown name is unknown',
      ['FARSIGHT_SMTPP_FILE'],
      [
        'FARSIGHT_SMTPP_FILE is not a Farsight setting and is ignored: did you mean FARSIGHT_SMTP_FILE? (docs/configuration.md lists them)',
      ],
    ],
  ])('%s', (_, names, want) => expect(unknownVariableWarnings(names)).toEqual(want));
});

describe('editDistance', () => {
  it.each([
    ['LISTEN', 'LISTEN', 0],
    ['LISTN', 'LISTEN', 1],
    ['ULR', 'URL', 1],
    ['', 'ABC', 3],
    ['KITTEN', 'SITTING', 3],
  ])('%s → %s: %i', (a, b, want) => expect(editDistance(a, b)).toBe(want));
});
