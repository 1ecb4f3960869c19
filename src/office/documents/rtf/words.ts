/** RTF vocabulary: the control words and destinations the reader acts on, and the group state. */
export const CHARSET_CP: Record<number, string> = {
  0: '',
  1: '',
  2: 'symbol',
  77: 'macintosh',
  128: 'cp932',
  129: 'cp949',
  130: 'johab',
  134: 'gbk',
  136: 'big5',
  161: 'cp1253',
  162: 'cp1254',
  163: 'cp1258',
  177: 'cp1255',
  178: 'cp1256',
  186: 'cp1257',
  204: 'cp1251',
  222: 'cp874',
  238: 'cp1250',
  255: 'cp437',
};

export const MAX_DEPTH = 1000;

/** Destinations whose text goes into paragraphs. */
export const TEXT_DESTS: ReadonlySet<Dest> = new Set<Dest>([
  'body',
  'fldrslt',
  'header',
  'footer',
  'footnote',
  'annotation',
  'textbox',
]);

export interface State {
  bold: boolean;
  italic: boolean;
  strike: boolean;
  sup: boolean;
  sub: boolean;
  hidden: boolean;
  uc: number;
  font: number;
  /** What the group's text goes to. */
  dest: Dest;
  href?: string;
}

export type Dest =
  | 'body'
  | 'skip'
  | 'fonttbl'
  | 'stylesheet'
  | 'fldinst'
  | 'fldrslt'
  | 'info'
  | 'listtext'
  | 'pict'
  | 'header'
  | 'footer'
  | 'footnote'
  | 'annotation'
  | 'textbox'
  | 'infoField'
  | 'listtable'
  | 'listoverridetable'
  // A drawn shape's property ({\sp}), its name ({\sn}), its value ({\sv}) and the picture value of pib.
  | 'shapeProp'
  | 'shapePropName'
  | 'shapePropValue'
  | 'shapePicture';

export const SKIP_DESTS = new Set([
  'colortbl',
  'filetbl',
  'revtbl',
  'rsidtbl',
  'generator',
  'xmlnstbl',
  'mmathPr',
  'themedata',
  'colorschememapping',
  'latentstyles',
  'datastore',
  'pgdsctbl',
  'private',
  'bkmkstart',
  'bkmkend',
  'nonshppict',
  'objdata',
  'objclass',
  'template',
  'docvar',
  'xe',
  'tc',
  'fchars',
  'lchars',
  'pntxta',
  'pntxtb',
  'pnseclvl',
  'wgrffmtfilter',
  'ftnsep',
  'ftnsepc',
  'ftncn',
  'aftnsep',
  'aftnsepc',
  'aftncn',
  'userprops',
  'atnid',
  'atndate',
  'atnref',
  'atrfstart',
  'atrfend',
  'panose',
  'falt',
  'fname',
  'listpicture',
  'passwordhash',
  'blipuid',
  'defchp',
  'defpap',
  'mmath',
  'comment',
  'operator',
]);

export const KNOWN_WORDS = new Set([
  'annotation',
  'ansicpg',
  'atnauthor',
  'author',
  'b',
  'bullet',
  'cell',
  'cellx',
  'clmgf',
  'clmrg',
  'clvmgf',
  'clvmrg',
  'column',
  'company',
  'deleted',
  'dibitmap',
  'dn',
  'doccomm',
  'emdash',
  'emfblip',
  'emspace',
  'endash',
  'enspace',
  'f',
  'fcharset',
  'field',
  'fldinst',
  'fldrslt',
  'fonttbl',
  'footer',
  'footerf',
  'footerl',
  'footerr',
  'footnote',
  'header',
  'headerf',
  'headerl',
  'headerr',
  'i',
  'ilvl',
  'info',
  'intbl',
  'itap',
  'jpegblip',
  'keywords',
  'ldblquote',
  'levelnfc',
  'levelnfcn',
  'levelstartat',
  'lfolevel',
  'line',
  'list',
  'listid',
  'listlevel',
  'listoverride',
  'listoverridestartat',
  'listoverridetable',
  'listtable',
  'listtext',
  'lquote',
  'ls',
  'mac',
  'macpict',
  'nestcell',
  'nestrow',
  'nosupersub',
  'object',
  'operator',
  'outlinelevel',
  'page',
  'par',
  'pard',
  'pc',
  'pca',
  'pict',
  'plain',
  'pngblip',
  'pntext',
  'qmspace',
  'rdblquote',
  'result',
  'row',
  'rquote',
  's',
  'sect',
  'shp',
  'shprslt',
  'shptxt',
  'sn',
  'sp',
  'strike',
  'striked',
  'stylesheet',
  'sub',
  'subject',
  'super',
  'sv',
  'tab',
  'title',
  'trleft',
  'trowd',
  'uc',
  'up',
  'v',
  'wbitmap',
  'wmetafile',
]);

export const ROW_DEFINITION_WORDS = new Set(['trowd', 'trleft', 'cellx', 'clmgf', 'clmrg', 'clvmgf', 'clvmrg']);
