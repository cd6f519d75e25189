/**
 * PHP's serialize() format as Magento stores order options and payment details: read byte by byte, string
 * lengths counted in bytes. Broken text is no value rather than an error.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unserialize } from './sales-common.js';

test('scalars, lists and maps', () => {
  assert.deepEqual(unserialize('a:1:{i:0;N;}'), [null]);
  assert.equal(unserialize('b:1;'), true);
  assert.equal(unserialize('b:0;'), false);
  assert.equal(unserialize('i:42;'), 42);
  assert.equal(unserialize('i:-7;'), -7);
  assert.equal(unserialize('i:12345678901234567;'), 12345678901234567);
  assert.equal(unserialize('d:1.5;'), 1.5);
  assert.equal(unserialize('d:-0.25;'), -0.25);
  assert.equal(unserialize('s:5:"hello";'), 'hello');
  assert.equal(unserialize('s:0:"";'), '');
  assert.deepEqual(unserialize('a:0:{}'), []);
  assert.deepEqual(unserialize('a:2:{i:0;s:1:"a";i:1;s:1:"b";}'), ['a', 'b']);
  // keys not 0…n-1 in order make a map
  assert.deepEqual(unserialize('a:2:{i:1;s:1:"a";i:0;s:1:"b";}'), { 1: 'a', 0: 'b' });
  assert.deepEqual(unserialize('a:2:{s:3:"qty";d:2;s:4:"info";a:1:{s:7:"product";s:2:"17";}}'), { qty: 2, info: { product: '17' } });
  assert.deepEqual(unserialize('O:8:"stdClass":1:{s:1:"x";i:1;}'), { x: 1 });
});

test('string lengths count bytes, and quotes or separators inside a string are text', () => {
  assert.equal(unserialize('s:7:"Größe";'), 'Größe');
  assert.deepEqual(unserialize('a:1:{s:5:"label";s:8:"a;b:"c"}";}'), { label: 'a;b:"c"}' });
  assert.deepEqual(unserialize('a:1:{s:4:"name";s:6:"€ 12";}'), { name: '€ 12' });
});

test('JSON text is read as JSON; broken or foreign text is no value', () => {
  assert.deepEqual(unserialize('{"a":[1,2]}'), { a: [1, 2] });
  for (const bad of [
    '',
    '   ',
    'plain text',
    'a:2:{i:0;s:1:"a";}',
    's:10:"short";',
    's:3:"abc"',
    'a:1:{i:0;x:1;}',
    '{not json',
    'O:3:"Foo"',
  ]) {
    assert.equal(unserialize(bad), undefined, bad);
  }
  assert.equal(unserialize(null), undefined);
  assert.equal(unserialize(undefined), undefined);
});
