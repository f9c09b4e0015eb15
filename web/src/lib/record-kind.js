// @ts-check
// Record kinds: what a row of the record table is (the session's recordKinds() column). The one
// JavaScript declaration, used by the worker and the page; `npm run test` type-checks it against
// the contract (wasm/profscope.d.ts RecordKinds, which mirrors core/model/record_table.h).

/** @type {Readonly<import('../../../wasm/profscope').RecordKinds>} */
export const RecordKind = Object.freeze({
  FileHeader: 0,
  Attr: 1,
  AttrIds: 2,
  EventTypes: 3,
  DataSection: 4,
  Record: 5,
  FeatureTable: 6,
  Feature: 7,
  Payload: 8,
  Nested: 9,
  Unparsed: 10,
});
