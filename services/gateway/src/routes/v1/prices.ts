import type { Firestore } from "@google-cloud/firestore";
import {
  CUSTOM_PRICE_KEYS,
  CustomPriceSchema,
  createCustomPrice,
  deleteCustomPrice,
  listCustomPrices,
  unknownPriceKey,
} from "@usage-ingestion/prices";
import { jsonObject, MAX_IDENTIFIER_BYTES, utf8ByteLength, validationFailed } from "@usage-ingestion/shared";
import type { Request, Response } from "express";
import * as v from "valibot";
import { ifMatch } from "../../http/etag.ts";
import { listBody, pageOf, pageQuery } from "../../http/paging.ts";
import { send } from "../../http/send.ts";
import { validated } from "../../http/validated.ts";
import { changeOf, organizationOf } from "./change-context.ts";

const fits = (text: string) => utf8ByteLength(text) <= MAX_IDENTIFIER_BYTES;

/** One price as `admin pricing add` takes it, its identifiers bounded as a transaction's are. */
export const PriceInputSchema = jsonObject(
  v.pipe(
    CustomPriceSchema,
    v.check((price) => fits(price.model), `model must be at most ${MAX_IDENTIFIER_BYTES} bytes in UTF-8`),
    v.check(
      (price) => price.model_tier === undefined || fits(price.model_tier),
      `model_tier must be at most ${MAX_IDENTIFIER_BYTES} bytes in UTF-8`,
    ),
  ),
);

/** `GET /v1/orgs/{org}/prices` (viewer): the organization's own prices, each with its `id` and `etag`. */
export function listPricesRoute(db: Firestore) {
  return async (req: Request, res: Response) => {
    const page = pageQuery(req, res);
    if (!page) return;
    const { items, nextPageToken } = pageOf(await listCustomPrices(db, organizationOf(res)), page);
    res.status(200).json(listBody("prices", items, nextPageToken));
  };
}

/** `POST /v1/orgs/{org}/prices` (admin): one price; a misspelt key is refused by its name. */
export function createPriceRoute(db: Firestore) {
  return async (req: Request, res: Response) => {
    const misspelt = unknownPriceKey(req.body, CUSTOM_PRICE_KEYS);
    if (misspelt)
      return send(res, validationFailed([{ field: misspelt.path, code: "invalid_value", message: misspelt.message }]));
    const price = validated(res, PriceInputSchema, req.body);
    if (!price) return;
    const created = await createCustomPrice(db, organizationOf(res), price, changeOf(res));
    res.status(201).set("ETag", `"${created.etag}"`).json(created);
  };
}

/** `DELETE /v1/orgs/{org}/prices/{id}` (admin), honouring If-Match. */
export function deletePriceRoute(db: Firestore) {
  return async (req: Request, res: Response) => {
    await deleteCustomPrice(db, organizationOf(res), String(req.params.id), changeOf(res), ifMatch(req));
    res.status(204).end();
  };
}
