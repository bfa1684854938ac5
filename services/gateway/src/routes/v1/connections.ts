import type { Firestore } from "@google-cloud/firestore";
import {
  CONNECTION_VENDORS,
  type ConnectionVendor,
  connectionView,
  deleteConnection,
  isConnectionVendor,
  listConnections,
  putConnection,
} from "@usage-ingestion/reconciliation";
import { ConflictError, NotFoundError } from "@usage-ingestion/shared";
import type { SecretBox } from "@usage-ingestion/webhooks";
import type { Request, Response } from "express";
import * as v from "valibot";
import { listBody, pageOf, pageQuery } from "../../http/paging.ts";
import { validated } from "../../http/validated.ts";
import { changeOf, organizationOf } from "./change-context.ts";

const name = v.pipe(
  v.string("must be a string"),
  v.minLength(1, "must not be empty"),
  v.maxLength(128, "must be at most 128 characters"),
);
/** The body of `PUT .../connections/{vendor}`, exported for /openapi.json. */
export const ConnectionPutSchema = v.strictObject(
  {
    credential: v.pipe(
      v.string("must be a string"),
      v.minLength(1, "must not be empty"),
      v.maxLength(2048, "must be at most 2048 characters"),
    ),
    mappings: v.optional(
      v.pipe(
        v.record(name, name, "must be an object of the vendor's ids to dimension names"),
        v.maxEntries(8, "must map at most 8 ids"),
      ),
    ),
  },
  "holds an unknown field",
);

/** The vendor of the path, or a 404 naming the ones that exist. */
function vendorOf(req: Request): ConnectionVendor {
  const vendor = String(req.params.vendor);
  if (isConnectionVendor(vendor)) return vendor;
  throw new NotFoundError(`no vendor "${vendor.slice(0, 64)}": connections are to ${CONNECTION_VENDORS.join(", ")}`);
}

const sealing = (box: SecretBox | undefined): SecretBox => {
  if (box) return box;
  throw new ConflictError(
    "this deployment has no WEBHOOK_SECRET_KEY, so it cannot seal a vendor credential; ask its operator",
  );
};

/** `GET /v1/orgs/{org}/connections` (viewer): each vendor connection, never its credential. */
export function listConnectionsRoute(db: Firestore) {
  return async (req: Request, res: Response) => {
    const page = pageQuery(req, res);
    if (!page) return;
    const connections = await listConnections(db, organizationOf(res));
    const { items, nextPageToken } = pageOf(
      connections.map((connection) => ({ id: connection.vendor, view: connectionView(connection) })),
      page,
    );
    res.status(200).json(
      listBody(
        "connections",
        items.map((item) => item.view),
        nextPageToken,
      ),
    );
  };
}

/** `PUT /v1/orgs/{org}/connections/{vendor}` (admin): 201 when new, 200 when replaced; never the credential. */
export function putConnectionRoute(db: Firestore, box: SecretBox | undefined) {
  return async (req: Request, res: Response) => {
    const vendor = vendorOf(req);
    const body = validated(res, ConnectionPutSchema, req.body);
    if (!body) return;
    const { connection, created } = await putConnection(db, sealing(box), organizationOf(res), vendor, {
      credential: body.credential,
      ...(body.mappings ? { mappings: body.mappings } : {}),
      change: changeOf(res),
    });
    res.status(created ? 201 : 200).json(connectionView(connection));
  };
}

/** `DELETE /v1/orgs/{org}/connections/{vendor}` (admin): the connection and its stored credential. */
export function deleteConnectionRoute(db: Firestore) {
  return async (req: Request, res: Response) => {
    await deleteConnection(db, organizationOf(res), vendorOf(req), changeOf(res));
    res.status(204).end();
  };
}
